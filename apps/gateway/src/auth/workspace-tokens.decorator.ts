import { SetMetadata } from '@nestjs/common';

export const REFUSES_WORKSPACE_TOKENS = 'gateway:refuses-workspace-tokens';
/**
 * Marks a controller or route that a workspace-bound API token may not reach
 * (docs/decisions.md: organization and admin operations, and account security):
 * the guard answers 403 `workspace_token_forbidden` before any service is asked.
 */
export const RefusesWorkspaceTokens = () => SetMetadata(REFUSES_WORKSPACE_TOKENS, true);
