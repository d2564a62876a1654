import { afterAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { jwtKeyId } from '@social/platform';
import { decodeProtectedHeader } from 'jose';
import { registerUser } from '../support/api.js';
import { startGatewayReplica, type GatewayReplica } from '../support/gateway-replica.js';
import { startServiceReplica, type ServiceReplica } from '../support/service-replica.js';

// Rotating the access-token key under load (k8s/README.md, "Rotating keys"): verifiers get the new public key
// beside the old one, an accounts replica signs with the new private key while the stack's still signs with the
// old one, and no request is refused; once the old key is retired, only its tokens stop working.

const pem = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

describe('JWT key rotation under load', () => {
  const started: Array<GatewayReplica | ServiceReplica> = [];
  afterAll(async () => {
    await Promise.all(started.map((process) => process.stop()));
  });

  it('signs with a new kid while old tokens still verify: no 401 during the rotation, then the old key retires', async () => {
    const next = pem();
    const oldPublic = process.env.E2E_JWT_PUBLIC_KEY!;
    // Step 1: a gateway that knows both keys.
    const both = await startGatewayReplica({ env: { JWT_PUBLIC_KEY: `${oldPublic}\n${next.publicKey}` } });
    started.push(both);
    // Step 2: an accounts replica signing with the new key (SECRETS_KEY as a keyring whose first key is the old one,
    // so its sealed values and derived keys stay readable by the replicas that do not have the new key yet).
    const signer = await startServiceReplica('accounts', {
      JWT_PRIVATE_KEY: next.privateKey,
      SECRETS_KEY: `k0:${process.env.E2E_SECRETS_KEY},k1:${randomBytes(32).toString('base64')}`,
    });
    started.push(signer);

    const user = await registerUser();
    // New sessions (each one signed by whichever accounts replica takes it); sign-ins are rate limited, sign-ups per email.
    const signUp = async () => (await registerUser()).token;
    const me = (baseUrl: string, token: string) =>
      fetch(`${baseUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.status);

    // Load: sign-ups (served by either accounts replica, so by either key) and requests with every token so far.
    const tokens: string[] = [user.token];
    const statuses: number[] = [];
    const until = Date.now() + 8_000;
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        while (Date.now() < until) {
          if (worker < 2) tokens.push(await signUp());
          else statuses.push(await me(both.baseUrl, tokens[Math.floor(Math.random() * tokens.length)]));
        }
      }),
    );
    const kids = new Set(tokens.map((token) => decodeProtectedHeader(token).kid));
    expect(kids.size).toBe(2);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // Step 3: a gateway with only the new key: new tokens pass, tokens of the retired key are refused.
    const retired = await startGatewayReplica({ env: { JWT_PUBLIC_KEY: next.publicKey } });
    started.push(retired);
    // From the key itself: the first sign-up may have been signed by either accounts replica.
    const newKid = await jwtKeyId(next.publicKey);
    for (const token of tokens.slice(0, 40)) {
      expect(await me(retired.baseUrl, token)).toBe(decodeProtectedHeader(token).kid === newKid ? 200 : 401);
    }
  }, 180_000);
});
