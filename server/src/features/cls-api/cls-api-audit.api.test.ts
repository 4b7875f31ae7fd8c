import { clsApi } from '@lp/contract/cls/api';
import { describe, expect } from 'vitest';
import { buildElasticServer } from '../../../harness/elastic-factories.ts';
import { acme, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/* Issue 13 §1: a license-server credential issued or revoked by staff is one audit entry of the account. */

const CN = acme.customerNumber;
const STAFF = 'busops@vendor.example';

const test = apiTest
  /** Acme's elastic license server (the cast first: its account). */
  .extend('clsId', { scope: 'file' }, async ({ database, cast: _accounts }) =>
    buildElasticServer(database.db, CN),
  )
  .extend('calls', { scope: 'file' }, async ({ api, database, clsId }) => ({
    issue: (who: Caller, server = clsId) =>
      api.call(who, clsApi.issueCredential, { customerNumber: CN, clsId: server }),
    issued: async (who: Caller) =>
      (await api.ok(who, clsApi.issueCredential, { customerNumber: CN, clsId })).data,
    revoke: (who: Caller, id: string) => api.call(who, clsApi.revokeCredential, { params: { id } }),
    entries: () => auditEntriesOf(database.db, 'cls-api.credential.'),
  }));

const byStaff = {
  customerNumber: CN,
  actorKind: 'user',
  actorName: STAFF,
  objectType: 'cls-credential',
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('license-server credential audit', () => {
  test('issuing is one entry naming the credential and its server, never the token; refused issues write none', async ({
    cast: { boss, busops },
    clsId,
    calls: { issue, issued, entries },
  }) => {
    expect((await issue(boss)).statusCode).toBe(403);
    expect((await issue(busops, 'NOT-A-SERVER')).statusCode).toBe(404);
    expect(await entries()).toEqual([]);
    const { id, token } = await issued(busops);
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      action: 'cls-api.credential.issued',
      objectId: id,
      before: null,
      after: { clsId, createdBy: STAFF },
    });
    expect(JSON.stringify(rows[0])).not.toContain(token);
  });

  test('revoking is one entry; revoking again or by a customer writes none', async ({
    cast: { boss, busops },
    calls: { issued, revoke, entries },
  }) => {
    const { id } = await issued(busops);
    expect((await revoke(boss, id)).statusCode).toBe(403);
    expect((await revoke(busops, id)).statusCode).toBe(200);
    expect((await revoke(busops, id)).statusCode).toBe(404);
    const rows = (await entries()).filter((r) => r.action === 'cls-api.credential.revoked');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { revokedAt: null },
      after: { revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
  });
});
