import type { SealedColumn } from '@social/platform';
import { appKey } from './provider-apps/environment-apps.js';

const providerApp = (member: string): SealedColumn => ({
  table: 'provider_apps',
  key: 'id',
  column: `sealed_${member}`,
  context: (row) => `provider_apps:${appKey(String(row['provider']), String(row['instance_url']))}:${member}`,
});

/** What admin seals with SECRETS_KEY (contexts as in provider-apps.service.ts and instance-settings.service.ts), for `main.js reseal`. */
export const adminSealedColumns: SealedColumn[] = [
  providerApp('client_secret'),
  providerApp('bot_token'),
  providerApp('webhook_secret'),
  { table: 'instance_settings', key: 'key', column: 'sealed_value', context: (row) => `instance_settings:${String(row['key'])}` },
];
