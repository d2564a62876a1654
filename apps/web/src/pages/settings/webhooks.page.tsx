import { Placeholder } from '../placeholder';

export default function WebhooksPage() {
  return <Placeholder title="Webhooks" what="Endpoints that receive the workspace's events." />;
}
