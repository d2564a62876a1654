import { describe, expect, it } from '@jest/globals';
import type { AccountsConfig } from '../config.js';
import { relyingPartyFrom } from './relying-party.js';

const config = (values: Partial<AccountsConfig>) => values as AccountsConfig;

describe('relyingPartyFrom', () => {
  it('defaults to the host name and origin of PUBLIC_BASE_URL', () => {
    expect(relyingPartyFrom(config({ PUBLIC_BASE_URL: 'https://app.example.com:8443/base' }))).toEqual({
      id: 'app.example.com',
      origin: 'https://app.example.com:8443',
    });
  });

  it('prefers WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN', () => {
    expect(
      relyingPartyFrom(
        config({ PUBLIC_BASE_URL: 'http://localhost:8080', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://login.example.com' }),
      ),
    ).toEqual({ id: 'example.com', origin: 'https://login.example.com' });
    expect(relyingPartyFrom(config({ WEBAUTHN_ORIGIN: 'https://login.example.com' }))).toEqual({
      id: 'login.example.com',
      origin: 'https://login.example.com',
    });
  });

  it('is undefined when nothing says where clients live', () => {
    expect(relyingPartyFrom(config({}))).toBeUndefined();
  });
});
