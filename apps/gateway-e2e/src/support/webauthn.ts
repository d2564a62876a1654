import { CBORType, encodeCBOR } from '@levischuck/tiny-cbor';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

/** The parts of PublicKeyCredentialCreationOptionsJSON a software authenticator needs. */
export interface CreationOptions {
  challenge: string;
  rp: { id: string; name: string };
}

export interface AttestationTweaks {
  /** Origin written into clientDataJSON (default: the relying party's, from `origin`). */
  origin?: string;
  challenge?: string;
  /** Flip one bit of the rpIdHash inside authenticatorData after building it. */
  corruptRpIdHash?: boolean;
  type?: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * A software authenticator: a fresh ES256 key pair and a real `none`
 * attestation (CBOR attestationObject, authenticatorData with rpIdHash, flags,
 * counter, attested credential data and the COSE public key), as a browser's
 * RegistrationResponseJSON.
 */
export function softwareAttestation(options: CreationOptions, origin: string, tweaks: AttestationTweaks = {}) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coseKey = encodeCBOR(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const credentialId = randomBytes(32);
  const rpIdHash = createHash('sha256').update(options.rp.id).digest();
  if (tweaks.corruptRpIdHash) rpIdHash[0] ^= 0x01;
  const flags = 0x01 | 0x04 | 0x40; // user present, user verified, attested credential data
  const counter = Buffer.alloc(4); // 0: a fresh credential
  const aaguid = Buffer.alloc(16);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([rpIdHash, Buffer.from([flags]), counter, aaguid, idLength, credentialId, coseKey]);
  const attestationObject = encodeCBOR(
    new Map<string, CBORType>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, CBORType>()],
      ['authData', authData],
    ]),
  );
  const clientDataJSON = Buffer.from(
    JSON.stringify({
      type: tweaks.type ?? 'webauthn.create',
      challenge: tweaks.challenge ?? options.challenge,
      origin: tweaks.origin ?? origin,
      crossOrigin: false,
    }),
  );
  return {
    id: b64url(credentialId),
    rawId: b64url(credentialId),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
