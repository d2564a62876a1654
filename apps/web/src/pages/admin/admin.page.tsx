import { Placeholder } from '../placeholder';

export default function AdminPage() {
  return <Placeholder title="Administration" what="Instance settings, provider apps, AI prompts and users." />;
}
