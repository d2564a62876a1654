import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { EventSources } from '../delivery/event-sources.js';
import type { OutgoingNotification } from '../delivery/outgoing-notification.js';
import { RoleChangedSource, SecurityActionSource } from './accounts.sources.js';
import {
  AccountNeedsAttentionSource,
  RenditionFailedSource,
  RenditionNeedsAttentionSource,
  RenditionPublishedSource,
} from './publishing.sources.js';

const USER = '0190a000-0000-7000-8000-0000000000b1';
const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const ORGANIZATION = '0190a000-0000-7000-8000-0000000000d1';
const AT = '2030-06-01T12:00:00.000Z';
const meta = { eventId: 'e', seq: 1 };

/** Event sources that hand back what a source describes, with the workspace's editors as asked. */
function sources() {
  const asked: unknown[] = [];
  const events = {
    deliver: async (_subject: string, payload: unknown, _meta: unknown, describe: (event: unknown) => Promise<unknown>) =>
      describe(payload),
    workspaceMembers: async (workspaceId: string, minRole: string) => {
      asked.push({ workspaceId, minRole });
      return { workspace_name: 'Launch team', recipients: [{ user_id: 'editor-1' }, { user_id: 'admin-1' }] };
    },
  } as unknown as EventSources;
  return { events, asked };
}

/** What a source would dispatch for `payload` (null: nothing). */
const describeWith = (source: { handle: (s: string, p: unknown, m: typeof meta) => Promise<void> }, payload: unknown) =>
  source.handle('subject', payload, meta) as unknown as Promise<OutgoingNotification | null>;

describe('security actions', () => {
  function security() {
    const statements: unknown[][] = [];
    const dataSource = {
      query: async (_sql: string, params: unknown[]) => {
        statements.push(params);
        return [];
      },
    } as unknown as DataSource;
    return { source: new SecurityActionSource(sources().events, dataSource), statements };
  }

  it('tell the user concerned what changed, and what to do if it was not them', async () => {
    const { source } = security();
    expect(await describeWith(source, { user_id: USER, action: 'passkey_added', detail: 'YubiKey', occurred_at: AT })).toEqual({
      topic: 'security_action',
      workspaceId: null,
      recipients: [USER],
      title: 'A passkey was added',
      body:
        'A passkey ("YubiKey") can now sign in to your account.' +
        ' If this was not you, sign in, change your password and review your security settings.',
      link: '/auth/security',
      occurredAt: AT,
    });
  });

  it('word an action without detail', async () => {
    const { source } = security();
    const notice = await describeWith(source, { user_id: USER, action: 'api_token_created', occurred_at: AT });
    expect(notice?.body).toMatch(/^An API token can now act for your account\./);
  });

  it('clear the mail refusals of the old address when the address changes', async () => {
    const { source, statements } = security();
    const notice = await describeWith(source, { user_id: USER, action: 'email_changed', detail: 'new@example.com', occurred_at: AT });
    expect(notice?.body).toMatch(/^Your account now signs in with new@example\.com\./);
    expect(statements).toEqual([[USER]]);
    await describeWith(source, { user_id: USER, action: 'password_changed', occurred_at: AT });
    expect(statements).toHaveLength(1);
  });

  it('describe nothing for an unknown action or a user id that is not a UUID', async () => {
    const { source, statements } = security();
    expect(await describeWith(source, { user_id: USER, action: 'teleported', occurred_at: AT })).toBeNull();
    expect(await describeWith(source, { user_id: 'ada', action: 'email_changed', occurred_at: AT })).toBeNull();
    expect(statements).toEqual([]);
  });
});

describe('role changes', () => {
  const source = new RoleChangedSource(sources().events);
  const change = { user_id: USER, name: 'Launch team', role: 'editor', previous_role: 'viewer', occurred_at: AT };

  it('in a workspace point to the workspace', async () => {
    expect(await describeWith(source, { ...change, workspace_id: WORKSPACE, organization_id: ORGANIZATION })).toEqual({
      topic: 'access_changed',
      workspaceId: WORKSPACE,
      organizationId: null,
      recipients: [USER],
      title: 'Your role in Launch team changed',
      body: 'Your role in the workspace Launch team is now editor (it was viewer).',
      link: `/workspaces/${WORKSPACE}`,
      occurredAt: AT,
    });
  });

  it('in an organization point to the organization, even unnamed', async () => {
    const notice = await describeWith(source, { ...change, name: '', organization_id: ORGANIZATION });
    expect(notice).toMatchObject({
      workspaceId: null,
      organizationId: ORGANIZATION,
      body: 'Your role in the organization is now editor (it was viewer).',
      link: `/organizations/${ORGANIZATION}`,
    });
    expect(notice?.title).toBe('Your role in an organization changed');
  });

  it('naming neither, or no valid member, describe nothing', async () => {
    expect(await describeWith(source, change)).toBeNull();
    expect(await describeWith(source, { ...change, workspace_id: 'w', organization_id: 'o' })).toBeNull();
    expect(await describeWith(source, { ...change, user_id: 'ada', workspace_id: WORKSPACE })).toBeNull();
  });
});

describe('publishing events', () => {
  const event = { workspace_id: WORKSPACE, publication_id: 'pub-1', platform: 'mastodon', occurred_at: AT };

  it("go to the workspace's editors and admins", async () => {
    const { events, asked } = sources();
    const notice = await describeWith(new RenditionPublishedSource(events), { ...event, external_url: 'https://social.example/1' });
    expect(asked).toEqual([{ workspaceId: WORKSPACE, minRole: 'editor' }]);
    expect(notice).toEqual({
      topic: 'post_published',
      title: 'Published on mastodon',
      body: 'Your post in Launch team is live on mastodon: https://social.example/1',
      link: '/publications/pub-1',
      workspaceId: WORKSPACE,
      recipients: ['editor-1', 'admin-1'],
      occurredAt: AT,
    });
  });

  it('describe nothing, asking no one, for a workspace id that is not a UUID', async () => {
    const { events, asked } = sources();
    expect(await describeWith(new RenditionFailedSource(events), { ...event, workspace_id: 'launch' })).toBeNull();
    expect(asked).toEqual([]);
  });

  it("word failures with the network's message, else its code", async () => {
    const { events } = sources();
    const failed = await describeWith(new RenditionFailedSource(events), { ...event, error_code: 'too_long', error_message: '' });
    expect(failed).toMatchObject({ topic: 'publish_failed', body: 'A post in Launch team could not be published on mastodon: too_long' });
    const unsure = await describeWith(new RenditionNeedsAttentionSource(events), {
      ...event,
      error_code: 'timeout',
      error_message: 'No answer in 30 s',
    });
    expect(unsure).toMatchObject({
      topic: 'account_needs_attention',
      body: expect.stringContaining('reached mastodon: No answer in 30 s'),
    });
  });

  it('send a disconnected account to its page', async () => {
    const { events } = sources();
    const notice = await describeWith(new AccountNeedsAttentionSource(events), { ...event, social_account_id: 'acc-1' });
    expect(notice).toMatchObject({
      topic: 'account_needs_attention',
      title: 'Your mastodon account needs to be connected again',
      link: '/social-accounts/acc-1',
    });
  });
});
