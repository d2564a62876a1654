import { Placeholder } from '../placeholder';

export default function AccountsPage() {
  return <Placeholder title="Accounts" what="Connected social accounts, those needing attention, connect and disconnect." />;
}
