import { describe, expect, it } from '@jest/globals';
import type { Principal } from '@social/contracts';
import type { AccessControl } from '@social/platform';
import type { DataSource } from 'typeorm';
import { MutesService, toNotificationMute } from './mutes.service.js';

const principal: Principal = { userId: 'u1', sessionId: 's', isAdmin: false, tokenKind: 'session', workspaceId: null };
const WORKSPACE = '0190a000-0000-7000-8000-0000000000a1';
const HOUR = 3_600_000;

describe('toNotificationMute', () => {
  it('is account-wide without a workspace', () => {
    expect(
      toNotificationMute({
        id: 'm1',
        workspaceId: null,
        workspaceName: '',
        startsAt: new Date('2030-06-01T20:00:00.000Z'),
        endsAt: new Date('2030-06-02T07:00:00.000Z'),
      }),
    ).toEqual({
      id: 'm1',
      scope: 'account',
      workspace_id: '',
      workspace_name: '',
      starts_at: '2030-06-01T20:00:00.000Z',
      ends_at: '2030-06-02T07:00:00.000Z',
    });
  });

  it('names its workspace, and reads times PostgreSQL JSON gives as text', () => {
    expect(
      toNotificationMute({
        id: 'm2',
        workspaceId: WORKSPACE,
        workspaceName: 'Launch team',
        startsAt: '2030-06-01T20:00:00+00:00',
        endsAt: '2030-06-02T09:00:00+02:00',
      }),
    ).toEqual({
      id: 'm2',
      scope: 'workspace',
      workspace_id: WORKSPACE,
      workspace_name: 'Launch team',
      starts_at: '2030-06-01T20:00:00.000Z',
      ends_at: '2030-06-02T07:00:00.000Z',
    });
  });
});

describe('muting', () => {
  /** A service that must not reach its store or the access check. */
  function mutes() {
    const refused = () => {
      throw new Error('not expected to be reached');
    };
    const dataSource = { transaction: refused, getRepository: refused } as unknown as DataSource;
    return new MutesService(dataSource, { requireWorkspace: refused } as unknown as AccessControl);
  }

  const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

  it('needs an end later than the start', async () => {
    const start = at(HOUR);
    await expect(mutes().create(principal, { starts_at: start, ends_at: start })).rejects.toMatchObject({
      status: 422,
      options: { errors: [{ location: 'body.ends_at', message: 'must be later than starts_at' }] },
    });
  });

  it('needs an end in the future', async () => {
    await expect(
      mutes().create(principal, { starts_at: at(-2 * HOUR), ends_at: at(-HOUR), workspace_id: WORKSPACE }),
    ).rejects.toMatchObject({
      options: { errors: [{ location: 'body.ends_at', message: 'must be in the future' }] },
    });
  });

  it('answers a mute id that is not a UUID as missing, without a lookup', async () => {
    await expect(mutes().get('u1', 'mute-1')).rejects.toMatchObject({ status: 404 });
    await expect(mutes().delete('u1', 'mute-1')).rejects.toMatchObject({ status: 404 });
  });
});
