import { Body, Controller, Delete, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  CompleteSocialAccountConnectionQuery,
  ConnectSocialAccountRequest,
  ListSandboxPostsQuery,
  ListSocialAccountsQuery,
  SandboxPostList,
  SocialAccount,
  SocialAccountAuthorization,
  SocialAccountList,
  SocialAccountOperations,
  schemaNameOf,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config.js';
import { baseUrlOf, schemaUrl } from '../http/base-url.js';
import { unwrapHttpReply } from '../http/http-reply.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Social accounts')
@ApiBearerAuth()
@ApiExtraModels(SocialAccountAuthorization)
@Controller('social-accounts')
export class SocialAccountsController {
  constructor(
    private readonly forward: Forwarder,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: "The workspace's connected social accounts, oldest first" })
  @Returns(SocialAccountList)
  @Refuses(403, 422)
  list(
    @Req() req: FastifyRequest,
    @Query(new ValidQuery(ListSocialAccountsQuery)) query: ListSocialAccountsQuery,
  ): Promise<SocialAccountList> {
    return this.forward.send(SocialAccountOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One connected account' })
  @Returns(SocialAccount)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<SocialAccount> {
    return this.forward.send(SocialAccountOperations.get, req, { params: { id } });
  }

  @Get(':id/sandbox-posts')
  @ApiOperation({
    summary: 'What the sandbox network received for one of its accounts, newest first (viewers)',
    description:
      'Each post with its parts as delivered: the text and every image or video (SHA-256, type, sides, bytes, alt text, and whether ' +
      'EXIF metadata survived image processing). Sandbox accounts only: any other account is 404.',
  })
  @Returns(SandboxPostList)
  @Refuses(404, 422)
  sandboxPosts(
    @Req() req: FastifyRequest,
    @Param('id') id: string,
    @Query(new ValidQuery(ListSandboxPostsQuery)) query: ListSandboxPostsQuery,
  ): Promise<SandboxPostList> {
    return this.forward.send(SocialAccountOperations.listSandboxPosts, req, { params: { id }, query: { ...query } });
  }

  @Post('connect')
  @ApiOperation({
    summary:
      'Connect an account (editors): the sandbox and bluesky answer 201 with the account (bluesky: 200 when connected already); an ' +
      'OAuth network answers 200 with where to send the user',
    description:
      'OAuth networks (x, linkedin, mastodon, threads, facebook, instagram, tiktok, youtube, discord) use the active provider app an ' +
      'administrator saved (mastodon: the one of `instance_url`); without one, 422 `provider_not_configured`. The network redirects ' +
      "to the app's redirect_uri, else `{public_app_url}/social-accounts/callback/{provider}`; the client app passes `code` and " +
      '`state` on to `GET /social-accounts/callback/{provider}`. bluesky signs in at once with `username` (the handle) and ' +
      '`app_password` (both required), at `instance_url` when given (a self-hosted PDS), else https://bsky.social: 201 with the ' +
      'new account, 200 when the workspace has that DID already (its session is replaced and it is `active` again). A wrong or ' +
      'revoked app password is 422 `provider_credentials_rejected` at body.app_password; a network that is down 502 ' +
      '`provider_unavailable`, one too slow 504 `provider_timeout`. telegram does not connect yet (422 at body.provider).',
  })
  @Returns(SocialAccount, 201)
  @ApiOkResponse({
    description: 'OAuth networks: the authorization URL and its state',
    schema: { $ref: getSchemaPath(SocialAccountAuthorization) },
  })
  @Refuses(
    400,
    403,
    409,
    413,
    415,
    422,
    502,
    'provider_credentials_rejected',
    'provider_not_configured',
    'provider_unavailable',
    'provider_timeout',
  )
  async connect(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(ConnectSocialAccountRequest)) body: ConnectSocialAccountRequest,
  ): Promise<SocialAccount | (SocialAccountAuthorization & { $schema: string })> {
    const answer = await this.forward.send(SocialAccountOperations.connect, req, { body });
    const connected = unwrapHttpReply(reply, answer);
    if ('authorization_url' in connected) {
      // Not the SocialAccount the route declares: its own $schema (the interceptor keeps a body's own).
      return { $schema: schemaUrl(baseUrlOf(req, this.config.PUBLIC_BASE_URL), schemaNameOf(SocialAccountAuthorization)), ...connected };
    }
    if (answer.status === 201) reply.header('location', `/social-accounts/${connected.id}`);
    return connected;
  }

  @Get('callback/:provider')
  @ApiOperation({
    summary: "Complete an OAuth connection (editors): the client app received the network's redirect and passes on its code and state",
    description:
      'The state is single use, bound to the caller and the network, valid 10 minutes (else 422 `oauth_state_invalid`); ' +
      'the role is checked again. 201 with the new account, or 200 when the workspace had that account already: its tokens are ' +
      'replaced and it is `active` again. A grant that acts for several accounts (LinkedIn organization pages the member ' +
      'administers, when the instance setting `linkedin_organization_pages` is on) connects each of them the same way; the ' +
      'answer is the first, the account that granted access. A refused code is 422 `oauth_code_rejected`; ' +
      'a network that is down or answers nonsense is 502 `provider_unavailable`, one that is too slow 504 `provider_timeout`.',
  })
  @Returns(SocialAccount, 201)
  @ApiOkResponse({ description: 'The account was connected already: refreshed', type: SocialAccount })
  @Refuses(403, 404, 422, 502, 'oauth_code_rejected', 'oauth_state_invalid', 'provider_unavailable', 'provider_timeout')
  async complete(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('provider') provider: string,
    @Query(new ValidQuery(CompleteSocialAccountConnectionQuery)) query: CompleteSocialAccountConnectionQuery,
  ): Promise<SocialAccount> {
    const answer = await this.forward.send(SocialAccountOperations.complete, req, {
      params: { provider },
      query: { ...query },
    });
    const account = unwrapHttpReply(reply, answer);
    if (answer.status === 201) reply.header('location', `/social-accounts/${account.id}`);
    return account;
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Disconnect an account (editors): it leaves its social sets and voice assignments',
    description:
      'Its pending renditions go with it. 409 `account_delivering` while one of them is being delivered (submitted or ambiguous).',
  })
  @ReturnsNothing()
  @Refuses(403, 404, 409, 'account_delivering')
  async disconnect(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(SocialAccountOperations.disconnect, req, { params: { id } });
  }
}
