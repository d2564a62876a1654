import { unwrap, type Schema } from '@social/sdk';
import { startAuthentication } from '@simplewebauthn/browser';
import { useAction } from '../../api/use-action';
import { useSession } from '../../session/session';
import { webAuthnFailure } from '../../ui/webauthn';

type AssertionOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** Signing in with a passkey: the platform's challenge, the browser's passkey picker, then a session (contract §2). */
export function usePasskeySignIn() {
  const { client, adopt } = useSession();
  return useAction(async () => {
    const begun = await unwrap(client.POST('/auth/passkeys/sign-in/begin'));
    const credential = await startAuthentication({ optionsJSON: begun.options as unknown as AssertionOptions }).catch((error: unknown) => {
      throw new Error(webAuthnFailure(error));
    });
    const body = {
      challenge_id: begun.challenge_id,
      credential: credential as unknown as Schema<'FinishPasskeySignInRequest'>['credential'],
    };
    adopt(await unwrap(client.POST('/auth/passkeys/sign-in/finish', { body })));
  });
}
