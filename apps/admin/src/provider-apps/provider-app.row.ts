import type { CONNECTION_MODES } from '@social/contracts';

export type ConnectionMode = (typeof CONNECTION_MODES)[number];

/** A provider app saved through the API (`provider_apps`); each secret sealed with context `provider_apps:<key>:<member>`. */
export interface ProviderAppRow {
  id: string;
  provider: string;
  instance_url: string;
  name: string;
  client_id: string;
  sealed_client_secret: string | null;
  sealed_bot_token: string | null;
  sealed_webhook_secret: string | null;
  redirect_uri: string;
  connection_mode: ConnectionMode;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}
