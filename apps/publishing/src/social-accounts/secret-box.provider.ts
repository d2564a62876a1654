import type { Provider } from '@nestjs/common';
import { SecretBox, SERVICE_CONFIG } from '@social/platform';
import type { PublishingConfig } from '../config.js';

/** Seals connected accounts' tokens and the PKCE verifiers of pending connections (SECRETS_KEY). */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [SERVICE_CONFIG],
  useFactory: (config: PublishingConfig) => SecretBox.fromBase64Key(config.SECRETS_KEY),
};
