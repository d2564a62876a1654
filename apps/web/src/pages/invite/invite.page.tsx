import { Placeholder } from '../placeholder';

export default function InvitePage() {
  return <Placeholder title="Invitation" what="Accept an invitation to a workspace." />;
}
