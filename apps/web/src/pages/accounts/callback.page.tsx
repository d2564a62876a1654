import { Placeholder } from '../placeholder';

export default function CallbackPage() {
  return <Placeholder title="Connecting an account" what="Completes an account connection when a network sends you back here." />;
}
