/**
 * `npm run build` (after the gateway wrote the OpenAPI document): writes the bus's message contracts and
 * docs/problems.md, both committed. A file whose text is unchanged is not rewritten.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { MESSAGE_CONTRACTS, OPENAPI_DOCUMENT, PROBLEM_LIST } from './generated-files.js';
import { describeMessageContracts } from './message-contracts.js';
import { problemList } from './problem-list.js';

function writeIfChanged(path: string, text: string): void {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current !== text) writeFileSync(path, text);
}

writeIfChanged(MESSAGE_CONTRACTS, `${JSON.stringify(describeMessageContracts(), null, 2)}\n`);
writeIfChanged(PROBLEM_LIST, problemList(JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8'))));
