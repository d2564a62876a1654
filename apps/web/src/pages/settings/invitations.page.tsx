import { Placeholder } from '../placeholder';

export default function InvitationsPage() {
  return <Placeholder title="Invitations" what="Invite people to the workspace and follow their invitations." />;
}
