import { describe, expect, it } from '@jest/globals';
import type { Principal } from '@social/contracts';
import { Problem } from '@social/platform';
import type { DataSource } from 'typeorm';
import type { ApiTokensService } from '../api-tokens/api-tokens.service.js';
import type { AuthService } from './auth.service.js';
import { PasswordService } from './password.service.js';
import { hashPassword, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('uses argon2id at OWASP minimum cost (19 MiB, 2 passes, 1 lane)', async () => {
    expect(await hashPassword('correct horse')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'Correct horse')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('refuses, without throwing, an account without a password and a damaged hash', async () => {
    expect(await verifyPassword(null, 'decoy password that never matches')).toBe(false);
    expect(await verifyPassword('not an argon2 hash', 'anything')).toBe(false);
  });
});

describe('changing the password', () => {
  const unused = () => {
    throw new Error('not expected to be reached');
  };
  const service = new PasswordService(
    { getRepository: unused, transaction: unused } as unknown as DataSource,
    {} as AuthService,
    {} as ApiTokensService,
  );

  it('needs a signed-in session: an API token is refused before anything is read', async () => {
    const principal: Principal = { userId: 'u', sessionId: 't', isAdmin: false, tokenKind: 'api_token', workspaceId: null };
    const refusal = await service.change(principal, { current_password: 'a', new_password: 'b' }, '127.0.0.1').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(Problem);
    expect(refusal).toMatchObject({ status: 403, code: 'session_required' });
  });
});
