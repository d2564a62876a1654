import { unwrap, type Schema } from '@social/sdk';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import '../../styles/manage.css';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { formatDateTime, humanize } from '../../ui/format';
import { ProblemMessage } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { EmptyState, Loading } from '../../ui/states';
import { useWorkspace, type WorkspaceRole } from '../../workspace/workspace';
import { ROLES, roleName } from './roles';

type Invitation = Schema<'WorkspaceInvitation'>;

const OPEN: Invitation['status'][] = ['created', 'sent', 'delivery_failed', 'expired'];

/** Invite by email (admins): the link is mailed, and shown here once to pass on another way; list, resend, revoke. */
export default function InvitationsPage() {
  const api = useApi();
  const { workspace, canAdminister } = useWorkspace();
  const invitations = useQuery(canAdminister ? workspace.id : null, () =>
    unwrap(api.GET('/workspaces/{id}/invitations', { params: { path: { id: workspace.id } } })),
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('editor');
  const [link, setLink] = useState<{ email: string; url: string }>();
  const invite = useAction(async () => {
    const created = await unwrap(
      api.POST('/workspaces/{id}/invitations', { params: { path: { id: workspace.id } }, body: { email, role } }),
    );
    setLink({ email: created.email, url: created.accept_url });
    setEmail('');
    invitations.reload();
  });
  const path = (invitation: Invitation) => ({ params: { path: { id: workspace.id, invitation_id: invitation.id } } });
  const resend = useAction(async (invitation: Invitation) => {
    const sent = await unwrap(api.POST('/workspaces/{id}/invitations/{invitation_id}/resend', path(invitation)));
    setLink({ email: sent.email, url: sent.accept_url });
    invitations.reload();
  });
  const revoke = useAction(async (invitation: Invitation) => {
    await unwrap(api.DELETE('/workspaces/{id}/invitations/{invitation_id}', path(invitation)));
    invitations.reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void invite.run();
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Invitations</h1>
      {!canAdminister ? (
        <EmptyState title="Only the workspace's admins invite people">
          <p>Ask an admin of {workspace.name} to invite someone.</p>
        </EmptyState>
      ) : (
        <>
          <form className="panel toolbar" onSubmit={submit} aria-label="Invite someone">
            <Field
              label="Email"
              name="email"
              type="email"
              required
              value={email}
              error={invite.error}
              onChange={(e) => setEmail(e.target.value)}
            />
            <SelectField
              label="Role"
              name="role"
              value={role}
              error={invite.error}
              onChange={(e) => setRole(e.target.value as WorkspaceRole)}
            >
              {ROLES.map((item) => (
                <option key={item.value} value={item.value}>
                  {item.label}
                </option>
              ))}
            </SelectField>
            <button type="submit" className="primary" disabled={invite.pending}>
              Invite
            </button>
            <ProblemMessage error={invite.error} />
          </form>
          {link && (
            <div className="secret" role="status">
              <p>{link.email} was invited. The link is shown only now, should you want to send it another way:</p>
              <code>{link.url}</code>
            </div>
          )}
          <ProblemMessage error={invitations.error ?? resend.error ?? revoke.error} />
          {invitations.loading && !invitations.data && <Loading />}
          {invitations.data?.invitations.length === 0 && <EmptyState title="No invitations yet" />}
          <ul className="rows" aria-label="Invitations">
            {invitations.data?.invitations.map((invitation) => (
              <li key={invitation.id} className="row">
                <div className="row-main">
                  <p>
                    <strong>{invitation.email}</strong> as {roleName(invitation.role)}{' '}
                    <span className={`badge${invitation.status === 'accepted' ? ' success' : ''}`}>{humanize(invitation.status)}</span>
                  </p>
                  <p className="meta">
                    Sent {formatDateTime(invitation.last_sent_at)} · email {humanize(invitation.email_delivery_status).toLowerCase()} ·
                    expires {formatDateTime(invitation.expires_at)}
                  </p>
                </div>
                {OPEN.includes(invitation.status) && (
                  <div className="row-actions">
                    <button
                      type="button"
                      onClick={() => resend.run(invitation)}
                      aria-label={`Resend the invitation to ${invitation.email}`}
                    >
                      Resend
                    </button>
                    <ConfirmButton
                      confirmLabel={`Confirm: revoke the invitation to ${invitation.email}`}
                      onConfirm={() => revoke.run(invitation)}
                    >
                      Revoke
                    </ConfirmButton>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
