import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection, nkeyAuthenticator, PermissionViolationError, RequestError } from '@nats-io/transport-node';
import { AdminPatterns, ApiTokenOperations, AuthOperations, SESSION_REVOKED_SUBJECT, UploadSessionOperations } from '@social/contracts';
import { type PrivateNats, REPO_ROOT, startPrivateNats } from '@social/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateNatsAuth, type NatsAuthFiles } from './generate.js';
import { generatePermissions } from './permissions.js';

/**
 * Issue 23: each app is its own NATS user, allowed only what its code sends and
 * serves. Checked against a real nats-server running the generated configuration.
 */
describe('per-app NATS users generated from the contracts', () => {
  let dir: string;
  let auth: NatsAuthFiles;
  let nats: PrivateNats;
  const open: NatsConnection[] = [];

  const connectAs = async (app: keyof NatsAuthFiles['seedFiles']) => {
    const seed = new TextEncoder().encode(readFileSync(auth.seedFiles[app], 'utf8').trim());
    const nc = await connect({ servers: nats.url, authenticator: nkeyAuthenticator(seed) });
    open.push(nc);
    return nc;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nats-auth-'));
    auth = generateNatsAuth(join(dir, 'auth'), REPO_ROOT);
    nats = await startPrivateNats(join(dir, 'server'), { extraConfig: readFileSync(auth.configFile, 'utf8') });
  }, 30_000);

  afterAll(async () => {
    await Promise.all(open.map((nc) => nc.close()));
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('permissions follow the code: the gateway calls the user-facing subjects, media never the admin ones', () => {
    const permissions = generatePermissions(REPO_ROOT);
    expect(permissions.gateway.publish).toEqual(
      expect.arrayContaining([AuthOperations.login.subject, ApiTokenOperations.create.subject, UploadSessionOperations.create.subject]),
    );
    expect(permissions.gateway.publish).not.toContain(AdminPatterns.resolveProviderApp);
    expect(permissions.media.publish).not.toContain(ApiTokenOperations.create.subject);
    expect(permissions.media.subscribe).toEqual(expect.arrayContaining(['media.>', '_INBOX.>']));
    expect(permissions.media.subscribe).not.toContain('accounts.>');
    // Only accounts announces revocations; every gateway hears them.
    expect(permissions.accounts.publish).toContain(SESSION_REVOKED_SUBJECT);
    expect(permissions.gateway.subscribe).toContain(SESSION_REVOKED_SUBJECT);
    for (const app of ['gateway', 'media', 'publishing', 'creative', 'insights', 'notifications', 'admin'] as const) {
      expect(permissions[app].publish).not.toContain(SESSION_REVOKED_SUBJECT);
    }
  });

  it('a connection without credentials is refused', async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/Authorization Violation/i);
  });

  it('a service user publishing outside its permissions is refused by NATS; inside them it works', async () => {
    const admin = await connectAs('admin');
    admin.subscribe('admin.>', {
      callback: (_error, msg) => {
        msg.respond('{"response":{"ok":true}}');
      },
    });
    const media = await connectAs('media');
    await admin.flush();

    // Media reads instance settings at start-up: allowed.
    expect((await media.request(AdminPatterns.settingOverrides, '{}', { timeout: 2_000 })).json()).toEqual({ response: { ok: true } });
    // Media never mints API tokens nor resolves provider apps: NATS refuses the publish.
    for (const subject of [ApiTokenOperations.create.subject, AdminPatterns.resolveProviderApp]) {
      const refused = await media.request(subject, '{}', { timeout: 2_000 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(RequestError);
      const cause = (refused as RequestError).cause;
      expect(cause).toBeInstanceOf(PermissionViolationError);
      expect(cause).toMatchObject({ operation: 'publish', subject });
    }
  });

  it('a service cannot listen on another service’s subjects, nor announce revocations', async () => {
    const media = await connectAs('media');
    const violations: string[] = [];
    void (async () => {
      for await (const status of media.status()) if (status.type === 'error') violations.push(String(status.error));
    })();
    const gateway = await connectAs('gateway');
    const heard: string[] = [];
    gateway.subscribe(SESSION_REVOKED_SUBJECT, {
      callback: (_error, msg) => {
        heard.push(msg.string());
      },
    });
    await gateway.flush();

    media.subscribe('accounts.>');
    media.publish(SESSION_REVOKED_SUBJECT, '{"sessionId":"forged","until":"2100-01-01T00:00:00.000Z"}');
    await media.flush().catch(() => undefined);
    const accounts = await connectAs('accounts');
    accounts.publish(SESSION_REVOKED_SUBJECT, '{"sessionId":"real","until":"2100-01-01T00:00:00.000Z"}');
    await accounts.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(heard).toEqual(['{"sessionId":"real","until":"2100-01-01T00:00:00.000Z"}']);
    expect(violations.join('\n')).toMatch(/subscription to "accounts\.>"/i);
    expect(violations.join('\n')).toMatch(/publish to "events\.accounts\.session-revoked"/i);
  });
});
