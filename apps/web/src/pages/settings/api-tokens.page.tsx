import { Placeholder } from '../placeholder';

export default function ApiTokensPage() {
  return <Placeholder title="API tokens" what="Tokens for scripts and tools that use the API." />;
}
