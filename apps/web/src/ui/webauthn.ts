import { WebAuthnError } from '@simplewebauthn/browser';

/** The browser's refusal in words: cancelled, not supported, or already registered. */
export function webAuthnFailure(error: unknown): string {
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for your account.';
    if (error.code === 'ERROR_CEREMONY_ABORTED') return 'The passkey request was cancelled.';
  }
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  if (error instanceof Error && error.message.includes('does not support WebAuthn')) return 'This browser does not support passkeys.';
  return `Your device could not use a passkey${error instanceof Error ? `: ${error.message}` : '.'}`;
}
