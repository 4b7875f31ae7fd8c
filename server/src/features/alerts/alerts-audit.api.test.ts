import { alertsApi } from '@lp/contract/alerts/api';
import { describe, expect } from 'vitest';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/* Issue 13 §1: alerts created, edited and resolved by staff, one vendor-wide audit entry each. */

const test = apiTest
  .extend('customer', { scope: 'file' }, async ({ signIn }) => signIn('admin@acme.example'))
  .extend(
    'entries',
    { scope: 'file' },
    async ({ database }) =>
      () =>
        auditEntriesOf(database.db, 'alerts.'),
  );

const body = {
  category: 'WARNING' as const,
  service: ['Portal'],
  description: 'Maintenance tonight',
  date: '2030-01-01T20:00:00.000Z',
  expires: '2030-01-01T22:00:00.000Z',
};
const byStaff = {
  customerNumber: null,
  actorKind: 'user',
  actorName: 'busops@vendor.example',
  objectType: 'alert',
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('alert audit', () => {
  test('create, edit and resolve write one entry each with the changed fields; refused calls write none', async ({
    api,
    entries,
    customer,
    cast: { busops },
  }) => {
    await api.refused(customer, alertsApi.create, body, 403);
    await api.refused(busops, alertsApi.create, { ...body, description: '' }, 400);
    expect(await entries()).toEqual([]);

    const created = await api.ok(busops, alertsApi.create, body);
    const id = String(created.data.id);
    const params = { id };
    await api.refused(customer, alertsApi.edit, { params, body }, 403);
    await api.ok(busops, alertsApi.edit, { params, body: { ...body, category: 'CRITICAL' } });
    // Saving the same values again changes nothing and writes nothing.
    await api.ok(busops, alertsApi.edit, { params, body: { ...body, category: 'CRITICAL' } });
    await api.refused(busops, alertsApi.edit, { params: { id: '999999' }, body }, 404);
    await api.ok(busops, alertsApi.resolve, { params });

    const rows = await entries();
    expect(rows.map((r) => r.action)).toEqual([
      'alerts.alert.created',
      'alerts.alert.edited',
      'alerts.alert.resolved',
    ]);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: null,
      after: {
        category: 'WARNING',
        status: 'ACTIVE',
        services: ['Portal'],
        description: 'Maintenance tonight',
        date: body.date,
        expires: body.expires,
        links: {},
      },
    });
    expect(rows[1]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { category: 'WARNING' },
      after: { category: 'CRITICAL' },
    });
    expect(rows[2]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { status: 'ACTIVE', expires: body.expires },
      after: { status: 'RESOLVED', expires: expect.stringMatching(/^\d{4}-/) },
    });
  });
});
