import type { SealedColumn } from '@social/platform';

/** What publishing seals with SECRETS_KEY (contexts as in provider-accounts.ts and oauth-connections.service.ts), for `main.js reseal`. */
export const publishingSealedColumns: SealedColumn[] = [
  { table: 'social_accounts', key: 'id', column: 'credentials', context: (row) => `social_accounts:${String(row['id'])}` },
  { table: 'oauth_states', key: 'id', column: 'sealed_code_verifier', context: (row) => `oauth_states:${String(row['id'])}` },
];
