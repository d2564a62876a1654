import { Placeholder } from '../placeholder';

export default function InboxPage() {
  return <Placeholder title="Inbox" what="Your notifications." />;
}
