import { describe, expect, it } from '@jest/globals';
import { withDatabase } from '../support/admin.js';
import { call, expectProblem } from '../support/api.js';
import { createTenant } from '../support/tenancy.js';

/** Issue 23: the OpenAPI document lists what the gateway answers, and POST /analytics/refresh always names a real job. */
describe('security: documented statuses', () => {
  it('lists 401 and 429 on every secured operation (with the bearer scheme), 414 wherever the path has parameters', async () => {
    const document = (await call('GET', '/openapi.json')).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ id: `${method.toUpperCase()} ${path}`, operation })),
    );
    // Public copies of media are fetched by the networks themselves: the signed token in the path is the credential.
    const PUBLIC = [
      'POST /auth/register',
      'POST /auth/login',
      'POST /auth/refresh',
      // Signing in with a passkey: the assertion is the credential.
      'POST /auth/passkeys/sign-in/begin',
      'POST /auth/passkeys/sign-in/finish',
      'PUT /media/upload-session/{id}/content',
      'GET /media/public/{token}',
    ];
    expect(
      operations
        .filter(({ operation }) => !operation.security?.length)
        .map(({ id }) => id)
        .sort(),
    ).toEqual([...PUBLIC].sort());
    for (const { id, operation } of operations) {
      if (!PUBLIC.includes(id))
        expect({ id, statuses: ['401', '429'].filter((s) => s in operation.responses) }).toEqual({ id, statuses: ['401', '429'] });
      if (id.includes('{')) expect({ id, has414: '414' in operation.responses }).toEqual({ id, has414: true });
      expect(Object.keys(operation).filter((key) => key.startsWith('x-public'))).toEqual([]);
    }
    // And the 414 is real.
    const tenant = await createTenant();
    expectProblem(await call('GET', `/workspaces/${'a'.repeat(600)}`, { token: tenant.owner.token }), 414, 'uri_too_long');
  });

  it('POST /analytics/refresh answers a real job_id even when the workspace has no connected account', async () => {
    const tenant = await createTenant();
    const accepted = await call('POST', '/analytics/refresh', { token: tenant.owner.token, body: { workspace_id: tenant.workspaceId } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'done' });
    const rows = await withDatabase(
      async (db) => (await db.query(`SELECT workspace_id, state FROM insights.sync_jobs WHERE id = $1`, [accepted.body.job_id])).rows,
    );
    expect(rows).toEqual([{ workspace_id: tenant.workspaceId, state: 'done' }]);
  });
});
