import { unwrap, type PlatformClient, type Schema } from '@social/sdk';
import { useQuery } from '../../api/use-query';
import { Link, useLocation, useParams } from '../../router/router';
import { useApi } from '../../session/session';
import { networkName } from '../../ui/networks';
import { ProblemMessage } from '../../ui/problem-message';
import { Loading } from '../../ui/states';
import { useTenancy } from '../../workspace/workspace';

type SocialAccount = Schema<'SocialAccount'>;

/**
 * Where an OAuth network sends the person back (`{public_app_url}/social-accounts/callback/{provider}`): hands the
 * code and state to the API, which connects the account, and shows the result or the problem in words.
 */
export default function CallbackPage() {
  const api = useApi();
  const tenancy = useTenancy();
  const { query } = useLocation();
  const { provider } = useParams();
  const code = query.get('code');
  const state = query.get('state');
  const refusal = query.get('error_description') || query.get('error');
  const result = useQuery(code && state ? state : null, () => complete(api, provider, code!, state!));

  let body;
  if (refusal) body = <ProblemMessage error={new Error(`${networkName(provider)} did not grant access: ${refusal}.`)} />;
  else if (!code || !state) body = <ProblemMessage error={new Error('This address lacks the code and state the network sends back.')} />;
  else if (result.error) body = <ProblemMessage error={result.error} title="The account could not be connected." />;
  else if (!result.data) body = <Loading label={`Connecting your ${networkName(provider)} account…`} />;
  else {
    const account = result.data;
    body = (
      <p role="status">
        Connected {account.display_name || `@${account.username}`} (@{account.username}) on {networkName(account.platform)}.
      </p>
    );
  }
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Connecting {networkName(provider)}</h1>
      {body}
      <p>
        <Link
          href="/accounts"
          onClick={() => {
            // The account belongs to the workspace the connect started in: show that one.
            if (result.data && result.data.workspace_id !== tenancy.workspace?.id) tenancy.reload(result.data.workspace_id);
          }}
        >
          Back to accounts
        </Link>
      </p>
    </section>
  );
}

/** A state is single use: the completion runs once per state, even when React mounts the page twice. */
const completions = new Map<string, Promise<SocialAccount>>();

function complete(api: PlatformClient, provider: string, code: string, state: string): Promise<SocialAccount> {
  let completion = completions.get(state);
  if (!completion) {
    completion = unwrap(api.GET('/social-accounts/callback/{provider}', { params: { path: { provider }, query: { code, state } } }));
    completions.set(state, completion);
  }
  return completion;
}
