import { unwrap } from '@social/sdk';
import { useAction } from '../../api/use-action';
import { navigate, useLocation } from '../../router/router';
import { HOME_PATH } from '../../routes';
import { useApi, useUser } from '../../session/session';
import { ProblemMessage } from '../../ui/problem-message';
import { EmptyState } from '../../ui/states';
import { useTenancy } from '../../workspace/workspace';

/**
 * Where the invitation mail leads (`{PUBLIC_APP_URL}/invite?token=…`). Signed out, the shell sends the person
 * through sign-in (or sign-up) and back here; the invitation must be for the address they signed in with.
 */
export default function InvitePage() {
  const api = useApi();
  const user = useUser();
  const tenancy = useTenancy();
  const token = useLocation().query.get('token') ?? '';
  const accept = useAction(async () => {
    const accepted = await unwrap(api.POST('/workspace-invitations/accept', { body: { token } }));
    tenancy.reload(accepted.workspace_id);
  });
  return (
    <section className="page narrow" aria-labelledby="page-title">
      <h1 id="page-title">Invitation</h1>
      {!token ? (
        <EmptyState title="This link has no invitation in it">
          <p>Open the link from the invitation email as it is, or ask for a new invitation.</p>
        </EmptyState>
      ) : (
        <div className="stack">
          <p>
            You were invited to a workspace. Accepting adds it to your workspaces, signed in as <strong>{user.email}</strong>; the
            invitation must have been sent to this address.
          </p>
          <ProblemMessage error={accept.error} title="The invitation could not be accepted" />
          <div>
            <button
              type="button"
              className="primary"
              disabled={accept.pending}
              onClick={async () => {
                const result = await accept.run();
                if (result.ok) navigate(HOME_PATH, { replace: true });
              }}
            >
              {accept.pending ? 'Accepting…' : 'Accept the invitation'}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
