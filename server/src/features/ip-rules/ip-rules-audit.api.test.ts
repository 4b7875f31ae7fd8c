import { ipRulesApi } from '@lp/contract/ip-rules/api';
import { describe, expect } from 'vitest';
import { buildLicenseServer } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/* Issue 13 §1: a saved allow-list is one audit entry of the account with the rules before and after. */

const CN = acme.customerNumber;
const CLS = 'ELASTIC-AUDIT-1';
const rules = (whitelist: { rulename: string; ipaddress: string }[]) => ({
  customerNumber: CN,
  clsId: CLS,
  whitelist,
});

const test = apiTest.extend(
  'entries',
  { scope: 'file' },
  async ({ database }) =>
    () =>
      auditEntriesOf(database.db, 'ip-rules.'),
);

// The cast comes first: its account owns the server.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic', state: 'Active' });
});

const office = { rulename: 'Office', ipaddress: '192.168.10.7' };

describe('ip-rules audit', () => {
  test('writes nothing for a refused save (viewer, bad address) or a save that changes nothing', async ({
    api,
    entries,
    cast: { boss, reader },
  }) => {
    await api.refused(reader, ipRulesApi.set, rules([office]), 403);
    await api.refused(boss, ipRulesApi.set, rules([{ rulename: 'a', ipaddress: '300.1.1.1' }]), 400);
    await api.ok(boss, ipRulesApi.set, rules([]));
    expect(await entries()).toEqual([]);
  });

  test('writes one entry with the rules before and after, by the user', async ({
    api,
    entries,
    cast: { boss },
  }) => {
    await api.ok(boss, ipRulesApi.set, rules([{ rulename: ' Office ', ipaddress: ' 192.168.10.7 ' }]));
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorName: 'boss@acme.example',
      action: 'ip-rules.changed',
      objectType: 'ip-rules',
      objectId: CLS,
      before: { rules: [] },
      after: { rules: [office] },
      requestId: expect.any(String),
      clientIp: expect.any(String),
    });
  });
});
