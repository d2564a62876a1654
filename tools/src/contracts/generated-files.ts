/** The contract files `npm run build` writes and the repository commits (paths from the repository's root). */
export const OPENAPI_DOCUMENT = 'libs/sdk/openapi.json';
export const MESSAGE_CONTRACTS = 'libs/contracts/messages.json';
export const PROBLEM_LIST = 'docs/problems.md';
/** Breaking changes made on purpose: one line each, as the check prints it, with why. */
export const INTENDED_BREAKING_CHANGES = 'libs/contracts/intended-breaking-changes.md';
