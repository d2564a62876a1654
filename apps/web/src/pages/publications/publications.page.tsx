import { Placeholder } from '../placeholder';

export default function PublicationsPage() {
  return <Placeholder title="Publications" what="Every publication with its delivery status, retry and cancel." />;
}
