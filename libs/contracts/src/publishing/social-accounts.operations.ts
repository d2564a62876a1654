import { checkedByService, nothing, operation, replyOf } from '../common/operation.js';
import { ListSandboxPostsQuery, SandboxPostList } from './sandbox-posts.dto.js';
import {
  CompleteSocialAccountConnectionQuery,
  ConnectSocialAccountRequest,
  ListSocialAccountsQuery,
  SocialAccount,
  SocialAccountAuthorization,
  SocialAccountList,
} from './social-accounts.dto.js';

/** Connected social accounts (publishing service). */
export const SocialAccountOperations = {
  list: operation({ subject: 'publishing.social-accounts.list', query: ListSocialAccountsQuery, answer: SocialAccountList }),
  get: operation({ subject: 'publishing.social-accounts.get', params: { id: null }, answer: SocialAccount }),
  /** 201 with the account (sandbox, bluesky; bluesky 200 when connected already), or 200 with an OAuth network's authorization. */
  connect: operation({
    subject: 'publishing.social-accounts.connect',
    body: ConnectSocialAccountRequest,
    answer: replyOf<SocialAccount | SocialAccountAuthorization>(SocialAccount),
  }),
  /** `params.provider` is a network's name, not an id: passed as sent, the OAuth connections judge it. */
  complete: operation({
    subject: 'publishing.social-accounts.callback',
    params: { provider: checkedByService },
    query: CompleteSocialAccountConnectionQuery,
    answer: replyOf(SocialAccount),
  }),
  disconnect: operation({ subject: 'publishing.social-accounts.disconnect', params: { id: null }, answer: nothing }),
  listSandboxPosts: operation({
    subject: 'publishing.social-accounts.sandbox-posts',
    params: { id: null },
    query: ListSandboxPostsQuery,
    answer: SandboxPostList,
  }),
};
