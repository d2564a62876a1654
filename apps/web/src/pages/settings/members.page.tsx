import { Placeholder } from '../placeholder';

export default function MembersPage() {
  return <Placeholder title="Members" what="The workspace's members and their roles." />;
}
