import { Placeholder } from '../placeholder';

export default function NotificationsPage() {
  return <Placeholder title="Notification preferences" what="Which notifications reach you, and how." />;
}
