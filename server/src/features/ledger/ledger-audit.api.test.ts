import { clsApi } from '@lp/contract/cls/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { buildElasticEntitlement, buildElasticServer } from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/* Issue 13 §1: a staff balance adjustment is one audit entry with the entitlement's Used before and after. */

const CN = '5400001';

const test = apiTest
  /** An elastic entitlement of the account, with its server; answers its activation id. */
  .extend('activationId', { scope: 'file' }, async ({ database }) => {
    await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
    await buildElasticServer(database.db, CN);
    const entitlement = await buildElasticEntitlement(database.db, CN, {
      quantity: 100,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    });
    await addContact(database.db, CN, 'admin@acme.example', contactRoles.admin);
    return entitlement.activationId;
  })
  .extend('busops', { scope: 'file' }, async ({ signIn }) =>
    signIn('ops@vendor.example', { vendorRoles: ['busops'] }),
  )
  .extend('customer', { scope: 'file' }, async ({ activationId: _account, signIn }) =>
    signIn('admin@acme.example'),
  )
  .extend(
    'entries',
    { scope: 'file' },
    async ({ database }) =>
      () =>
        auditEntriesOf(database.db, 'ledger.'),
  );

describe('balance adjustment audit', () => {
  test('refused adjustments (customer, too large, zero, unknown entitlement) write nothing', async ({
    api,
    entries,
    busops,
    customer,
    activationId,
  }) => {
    await api.refused(customer, clsApi.adjust, { customerNumber: CN, activationId, amount: 1 }, 403);
    await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId, amount: 1000 }, 400);
    await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId, amount: 0 }, 400);
    await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId: 'nope', amount: 1 }, 404);
    expect(await entries()).toEqual([]);
  });

  test('a debit and a credit are one entry each, by the staff member, with Used before and after', async ({
    api,
    entries,
    busops,
    activationId,
  }) => {
    await api.ok(busops, clsApi.adjust, {
      customerNumber: CN,
      activationId,
      amount: 2.5,
      note: 'migration',
      day: '2025-03-01',
    });
    await api.ok(busops, clsApi.adjust, { customerNumber: CN, activationId, amount: -1 });
    const rows = await entries();
    expect(rows).toHaveLength(2);
    const common = {
      customerNumber: CN,
      actorKind: 'user',
      actorName: 'ops@vendor.example',
      action: 'ledger.adjustment.posted',
      objectType: 'entitlement',
      objectId: activationId,
      requestId: expect.any(String),
      clientIp: expect.any(String),
    };
    expect(rows[0]).toMatchObject({
      ...common,
      before: { used: 0 },
      after: { used: 2.5, amount: 2.5, product: 'Balance Adjustment', note: 'migration', day: '2025-03-01' },
    });
    expect(rows[1]).toMatchObject({ ...common, before: { used: 2.5 }, after: { used: 1.5, amount: -1 } });
  });
});
