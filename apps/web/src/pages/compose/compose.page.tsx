import { Placeholder } from '../placeholder';

export default function ComposePage() {
  return <Placeholder title="Compose" what="Write a post, add media, preview it per account, then schedule or publish it." />;
}
