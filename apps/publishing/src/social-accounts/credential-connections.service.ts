import { Inject, Injectable } from '@nestjs/common';
import { HttpReply, Principal, SocialAccount } from '@social/contracts';
import { Problem, problems, SecretBox, SERVICE_CONFIG } from '@social/platform';
import { DataSource } from 'typeorm';
import type { PublishingConfig } from '../config.js';
import { ProviderError } from '../providers/provider-error.js';
import type { CredentialsConnectProvider, CredentialsSignIn } from '../providers/social-provider.js';
import { upsertConnectedAccount } from './account-upsert.js';

const NAME_LIMIT = 256;
const URL_LIMIT = 2048;
/** PostgreSQL text cannot hold U+0000, and a network is not trusted to keep names short. */
const clean = (value: string, max: number) => value.replace(/\u0000/g, '').slice(0, max);

/**
 * Networks connected with the account's own credentials (bluesky: a handle
 * and an app password): connect signs in at the network within
 * PROVIDER_TIMEOUT_MS, reads the profile, and connects the identity (201) or
 * refreshes the one the workspace has (200). The password is sealed with the
 * grant (a session can be created again once the refresh token has died) and
 * never answered or logged.
 */
@Injectable()
export class CredentialConnections {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<PublishingConfig, 'PROVIDER_TIMEOUT_MS'>,
  ) {}

  /** The caller may connect in the workspace (checked by the caller). */
  async connect(
    principal: Principal,
    workspaceId: string,
    provider: CredentialsConnectProvider,
    request: { instanceUrl: string; identifier: string; password: string },
  ): Promise<HttpReply<SocialAccount>> {
    let signedIn: CredentialsSignIn;
    try {
      signedIn = await provider.signIn(request, AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS));
    } catch (error) {
      throw signInProblem(error, provider.platform);
    }
    const { identity } = signedIn;
    return upsertConnectedAccount(this.dataSource, this.secrets, {
      workspaceId,
      platform: provider.platform,
      instanceUrl: signedIn.instanceUrl,
      userId: principal.userId,
      identity: {
        externalId: clean(identity.externalId, NAME_LIMIT),
        username: clean(identity.username, NAME_LIMIT),
        displayName: clean(identity.displayName, NAME_LIMIT),
        avatarUrl: identity.avatarUrl.length <= URL_LIMIT ? identity.avatarUrl : '',
      },
      grant: signedIn.grant,
    });
  }
}

/** A network's failure as connect answers it: refused credentials 422 at body.app_password, down 502, slow 504. */
function signInProblem(error: unknown, platform: string): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.networkCode === 'destination_not_public') {
    // The server named (or the one its identity document points at) is inside a private network.
    return problems.invalid('body.instance_url', 'must name a server on a public address');
  }
  switch (error.failure) {
    case 'refused':
    case 'no_account': {
      const message = `was refused by ${platform} for this handle (wrong or revoked app password, or the account is suspended)`;
      return new Problem(422, 'provider_credentials_rejected', `body.app_password ${message}.`, {
        errors: [{ location: 'body.app_password', message }],
      });
    }
    case 'timeout':
      return new Problem(504, 'provider_timeout', `${platform} did not answer in time; try connecting again.`, { retryAfter: 5 });
    case 'unavailable':
      return new Problem(502, 'provider_unavailable', `${error.message} Try connecting again shortly.`, { retryAfter: 30 });
  }
}
