import { Placeholder } from '../placeholder';

export default function SecurityPage() {
  return <Placeholder title="Security" what="Passkeys and sign-in methods." />;
}
