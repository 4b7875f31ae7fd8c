import { alertsApi } from '@lp/contract/alerts/api';
import { messages } from '@lp/contract/common/errors';
import type { BodyInput, Operation } from '@lp/contract/common/operation';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { anonymous, apiTest, type Caller, callName } from '../../../test/api-fixture.ts';
import { alerts } from '../../db/schema.ts';
import { CATEGORY_RANGE_MESSAGE, DATE_FILTER_MESSAGE } from './service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const fromNow = (ms: number) => new Date(Date.now() + ms);

const it = apiTest.extend(
  'alert',
  { scope: 'file' },
  async ({ api, database, cast: { boss: customer } }) => ({
    /** An alert stored as the admin screens would store it (a warning on Licensing, started an hour ago). */
    build: async (over: Partial<typeof alerts.$inferInsert> = {}) => {
      const [row] = await database.db
        .insert(alerts)
        .values({
          category: 'WARNING',
          status: 'ACTIVE',
          date: fromNow(-HOUR),
          expires: null,
          services: ['Licensing'],
          description: 'Slow responses',
          links: {},
          ...over,
        })
        .returning();
      return row!;
    },
    /** The ids of the banner's alerts, as a customer sees them. */
    activeIds: async (who: Caller = customer) =>
      (await api.ok(who, alertsApi.active, undefined)).data.map((a) => a.id),
    /** The ids of a page of the alerts table. */
    pageIds: async (input: BodyInput<typeof alertsApi.page>) =>
      (await api.ok(customer, alertsApi.page, input)).data.map((a) => a.id),
  }),
);

it.beforeEach(async ({ database }) => {
  await database.db.delete(alerts);
});

describe('authentication and authorization', () => {
  const calls: [Operation, unknown][] = [
    [alertsApi.active, undefined],
    [alertsApi.page, {}],
    [alertsApi.count, {}],
    [alertsApi.distinct, {}],
    [alertsApi.create, {}],
    [alertsApi.edit, { params: { id: 1 }, body: {} }],
    [alertsApi.resolve, { params: { id: 1 }, body: {} }],
  ];
  it.for(calls.map(([operation, input]) => ({ call: callName(operation, input), operation, input })))(
    'anonymous $call gets 401',
    async ({ operation, input }, { api }) => {
      const refusal = await api.refused(anonymous, operation, input, 401);
      expect(refusal).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
    },
  );

  it('lets a customer read alerts but not create, edit or resolve them', async ({
    api,
    database,
    cast: { boss: customer, sales },
    alert: { build, activeIds, pageIds },
  }) => {
    const a = await build();
    expect(await activeIds(customer)).toEqual([a.id]);
    expect(await pageIds({})).toEqual([a.id]);
    const body = { category: 'CRITICAL', service: ['Portal'], description: 'Down' } as const;
    const id = { id: a.id };
    for (const [refusal, who] of [
      [await api.refused(customer, alertsApi.create, body, 403), 'customer create'],
      [await api.refused(sales, alertsApi.create, body, 403), 'vendor sales create'],
      [await api.refused(customer, alertsApi.edit, { params: id, body }, 403), 'customer edit'],
      [await api.refused(customer, alertsApi.resolve, { params: id, body: {} }, 403), 'customer resolve'],
    ] as const) {
      expect(refusal, who).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    }
    // Nothing changed.
    const [stored] = await database.db.select().from(alerts);
    expect(stored).toMatchObject({ status: 'ACTIVE', description: 'Slow responses' });
    expect(await database.db.select().from(alerts)).toHaveLength(1);
  });
});

describe('readers without an account', () => {
  it('a user without accounts, and one whose only account is export-blocked, read every alert screen', async ({
    database,
    signIn,
    api,
    alert: { build },
  }) => {
    // The alerts are not account-scoped (issue 8 §3): the web app leaves these users on /nocustomer and /noaccess.
    const blocked = await buildAccount(database.db, { exportControlStatus: 'Denied' });
    await addContact(database.db, blocked!.customerNumber, 'cad@blocked.example', contactRoles.admin);
    const outage = await build({ category: 'CRITICAL', description: 'Reach outage' });
    const info = await build({ category: 'INFO', description: 'Reach info' });
    for (const who of [await signIn('newhire@nowhere.example'), await signIn('cad@blocked.example')]) {
      const active = (await api.ok(who, alertsApi.active, undefined)).data.map((a) => a.id);
      expect(active.sort()).toEqual([outage.id, info.id].sort());
      const one = await api.ok(who, alertsApi.page, {
        filter: { condition: 'ALL', criteria: [{ name: 'id', method: 'EQUALS', value: info.id }] },
        limit: 1,
      });
      expect(one.data.map((a) => a.description)).toEqual(['Reach info']);
    }
  });
});

describe('listActiveAlerts', () => {
  it('answers SUCCESS with an empty list when there are no alerts', async ({
    api,
    cast: { boss: customer },
  }) => {
    expect(await api.ok(customer, alertsApi.active, undefined)).toEqual({ status: 'SUCCESS', data: [] });
  });

  it('hides only alerts that are RESOLVED and expired', async ({ alert: { build, activeIds } }) => {
    const open = await build({ description: 'open' });
    const activeExpired = await build({ status: 'ACTIVE', expires: fromNow(-HOUR) });
    const resolvedFuture = await build({ status: 'RESOLVED', expires: fromNow(HOUR) });
    const resolvedNoExpiry = await build({ status: 'RESOLVED', expires: null });
    await build({ status: 'RESOLVED', expires: fromNow(-HOUR), description: 'done' });
    expect((await activeIds()).sort()).toEqual(
      [open.id, activeExpired.id, resolvedFuture.id, resolvedNoExpiry.id].sort(),
    );
  });

  it('shows INFO alerts only from 5 days before they start; other categories always', async ({
    alert: { build, activeIds },
  }) => {
    const soon = await build({ category: 'INFO', date: fromNow(4 * DAY) });
    await build({ category: 'INFO', date: fromNow(6 * DAY) });
    const farCritical = await build({ category: 'CRITICAL', date: fromNow(6 * DAY) });
    expect((await activeIds()).sort()).toEqual([soon.id, farCritical.id].sort());
  });

  it('returns the alert fields, most severe first', async ({
    api,
    cast: { boss: customer },
    alert: { build },
  }) => {
    const info = await build({ category: 'INFO', services: ['Downloads'] });
    const critical = await build({
      category: 'CRITICAL',
      services: ['Portal', 'Licensing'],
      description: 'Outage',
      date: new Date('2026-01-02T03:04:05Z'),
      expires: fromNow(DAY),
      links: { 'Status page': 'https://status.example.com' },
    });
    const { data } = await api.ok(customer, alertsApi.active, undefined);
    expect(data.map((a) => a.id)).toEqual([critical.id, info.id]);
    expect(data[0]).toEqual({
      id: critical.id,
      category: 'CRITICAL',
      status: 'ACTIVE',
      date: '2026-01-02T03:04:05.000Z',
      expires: critical.expires?.toISOString(),
      service: ['Portal', 'Licensing'],
      description: 'Outage',
      links: { 'Status page': 'https://status.example.com' },
    });
  });
});

describe('listAlerts (query engine)', () => {
  it('filters resolved alerts for the Resolved tab', async ({ alert: { build, pageIds } }) => {
    await build();
    const done = await build({ status: 'RESOLVED', expires: fromNow(-HOUR) });
    await build({ status: 'RESOLVED', expires: fromNow(HOUR) });
    expect(
      await pageIds({
        filter: { condition: 'ALL', criteria: [{ name: 'resolved', method: 'EQUALS', value: true }] },
      }),
    ).toEqual([done.id]);
    // A criterion no resolved alert meets: an empty page (the grid's "There are no resolved alerts to display.").
    expect(
      await pageIds({
        filter: {
          condition: 'ALL',
          criteria: [
            { name: 'resolved', method: 'EQUALS', value: true },
            { name: 'description', method: 'EQUALS', value: 'no-such-alert' },
          ],
        },
      }),
    ).toEqual([]);
  });

  it('filters a category range in the order OK < INFO < WARNING < CRITICAL', async ({
    api,
    cast: { boss: customer },
    alert: { build, pageIds },
  }) => {
    const ok = await build({ category: 'OK' });
    const info = await build({ category: 'INFO' });
    const warning = await build({ category: 'WARNING' });
    const critical = await build({ category: 'CRITICAL' });
    const range = async (value: [string, string]) =>
      (
        await pageIds({
          filter: { criteria: [{ name: 'category', method: 'RANGE', value }] },
          sorting: [{ name: 'id', direction: 'asc' }],
        })
      ).sort((a, b) => a - b);
    expect(await range(['INFO', 'WARNING'])).toEqual([info.id, warning.id]);
    expect(await range(['WARNING', 'CRITICAL'])).toEqual([warning.id, critical.id]);
    expect(await range(['OK', 'CRITICAL'])).toEqual([ok.id, info.id, warning.id, critical.id]);
    expect(await range(['critical', 'critical'])).toEqual([critical.id]);
    expect(await range(['CRITICAL', 'OK'])).toEqual([]);
    // Alphabetical order would put CRITICAL before INFO; the severity column keeps the spec's order.
    const refusal = await api.refused(
      customer,
      alertsApi.page,
      { filter: { criteria: [{ name: 'category', method: 'RANGE', value: ['INFO', 'BOGUS'] }] } },
      400,
    );
    expect(refusal).toMatchObject({ status: 'FAILURE', err: CATEGORY_RANGE_MESSAGE });
  });

  it('filters a whole day by date (YYYY-MM-DD, 19xx/20xx) and refuses other texts with 400', async ({
    api,
    cast: { boss: customer },
    alert: { build, pageIds },
  }) => {
    const early = await build({ date: new Date('2026-03-04T00:00:00Z') });
    const late = await build({ date: new Date('2026-03-04T23:59:59Z') });
    await build({ date: new Date('2026-03-05T00:00:00Z') });
    await build({ date: new Date('2026-03-03T23:59:59Z') });
    const day = (value: string | number) => ({
      filter: { criteria: [{ name: 'date', method: 'EQUALS' as const, value }] },
    });
    expect((await pageIds(day('2026-03-04'))).sort((a, b) => a - b)).toEqual([early.id, late.id]);
    for (const bad of ['2126-03-04', '1899-12-31', '2026-02-30', '04/03/2026', '2026-03-04T10:00:00Z', 5]) {
      const refusal = await api.refused(customer, alertsApi.page, day(bad), 400);
      expect(refusal, String(bad)).toMatchObject({ status: 'FAILURE', err: DATE_FILTER_MESSAGE });
    }
    expect(await api.ok(customer, alertsApi.count, day('2026-03-04'))).toEqual({
      status: 'SUCCESS',
      data: 2,
    });
  });

  it('pages by offset and by token, counts and lists distinct values', async ({
    api,
    cast: { boss: customer },
    alert: { build, pageIds },
  }) => {
    for (let i = 0; i < 7; i++) {
      await build({ date: new Date(Date.UTC(2026, 0, 1 + i)), services: [`S${i % 3}`] });
    }
    const byDate = [{ name: 'date', direction: 'asc' }] as const;
    const all = await pageIds({ sorting: [...byDate] });
    expect(all).toHaveLength(7);
    const first = await api.ok(customer, alertsApi.page, { sorting: [...byDate], token: null, limit: 3 });
    expect(first.data.map((a) => a.id)).toEqual(all.slice(0, 3));
    const token = first.token;
    expect(token).toEqual(expect.any(String));
    const second = await api.ok(customer, alertsApi.page, { sorting: [...byDate], token, limit: 3 });
    expect(second.data.map((a) => a.id)).toEqual(all.slice(3, 6));
    expect(await pageIds({ sorting: [...byDate], offset: 6, limit: 3 })).toEqual(all.slice(6));

    expect(await api.ok(customer, alertsApi.count, {})).toEqual({ status: 'SUCCESS', data: 7 });
    expect(await api.ok(customer, alertsApi.distinct, { key: 'service' })).toEqual({
      status: 'SUCCESS',
      data: ['S0', 'S1', 'S2'],
    });
    const categories = await api.ok(customer, alertsApi.distinct, { key: 'category' });
    expect(categories.data).toEqual(['WARNING']);
  });

  it('enforces the limits: at most 1000 rows per call, unknown columns refused', async ({
    api,
    cast: { boss: customer },
  }) => {
    await api.ok(customer, alertsApi.page, { limit: 1000 });
    const tooMany = await api.refused(customer, alertsApi.page, { limit: 1001 }, 400);
    expect(tooMany.status).toBe('FAILURE');
    await api.refused(
      customer,
      alertsApi.page,
      { filter: { criteria: [{ name: 'secret', method: 'EQUALS', value: 'x' }] } },
      400,
    );
    await api.refused(customer, alertsApi.distinct, { key: 'nope' }, 400);
  });

  it('refuses more than 500 distinct values and a count above the fetch-all size of 30000', async ({
    api,
    database,
    cast: { boss: customer },
  }) => {
    await database.db.execute(
      sql`insert into alerts (category, status, date, services, description)
          select case when g <= 501 then 'CRITICAL' else 'OK' end, 'ACTIVE', now(), array['S'], 'd' || g
          from generate_series(1, 30001) g`,
    );
    const critical = { criteria: [{ name: 'category', method: 'EQUALS' as const, value: 'CRITICAL' }] };
    const distinct = await api.refused(
      customer,
      alertsApi.distinct,
      { key: 'description', filter: critical },
      400,
    );
    expect(distinct).toMatchObject({ status: 'FAILURE', err: messages.tooManyDistinct });
    const fewer = {
      criteria: [...critical.criteria, { name: 'description', method: 'STARTSWITH' as const, value: 'd1' }],
    };
    const ok = await api.ok(customer, alertsApi.distinct, { key: 'description', filter: fewer });
    expect(ok.data).toHaveLength(111); // d1, d10-d19, d100-d199 among d1..d501

    const count = await api.refused(customer, alertsApi.count, {}, 400);
    expect(count).toMatchObject({ status: 'FAILURE', err: messages.exceedsMaxLength });
    expect(await api.ok(customer, alertsApi.count, { filter: critical })).toEqual({
      status: 'SUCCESS',
      data: 501,
    });
  });
});

describe('admin: create, edit, resolve', () => {
  const body = {
    category: 'CRITICAL',
    service: ['Portal', 'Licensing'],
    description: 'Sign-in unavailable',
    date: '2026-11-20T08:00:00Z',
    expires: '2099-11-20T18:00:00Z',
    links: { 'Status page': 'https://status.example.com/1' },
  } as const;
  const alertId = (id: number) => ({ id });

  it('creates, edits and resolves an alert', async ({
    api,
    cast: { busops, support },
    alert: { activeIds, pageIds },
  }) => {
    const alert = (await api.ok(busops, alertsApi.create, { ...body, service: [...body.service] })).data;
    expect(alert).toMatchObject({
      category: 'CRITICAL',
      status: 'ACTIVE',
      service: ['Portal', 'Licensing'],
      date: '2026-11-20T08:00:00.000Z',
      expires: '2099-11-20T18:00:00.000Z',
      links: { 'Status page': 'https://status.example.com/1' },
    });
    expect(await activeIds()).toEqual([alert.id]);

    const edited = await api.ok(support, alertsApi.edit, {
      params: alertId(alert.id),
      body: {
        ...body,
        service: [...body.service],
        category: 'WARNING',
        description: 'Sign-in slow',
        links: {},
      },
    });
    expect(edited.data).toMatchObject({
      id: alert.id,
      category: 'WARNING',
      description: 'Sign-in slow',
      links: {},
    });

    const r = (await api.ok(busops, alertsApi.resolve, { params: alertId(alert.id) })).data;
    expect(r.status).toBe('RESOLVED');
    expect(Date.parse(r.expires!)).toBeLessThanOrEqual(Date.now());
    expect(await activeIds()).toEqual([]);
    expect(
      await pageIds({ filter: { criteria: [{ name: 'resolved', method: 'EQUALS', value: true }] } }),
    ).toEqual([alert.id]);
  });

  it('defaults the start to now and keeps an earlier expiry when resolving', async ({
    api,
    cast: { busops },
    alert: { build },
  }) => {
    const created = await api.ok(busops, alertsApi.create, {
      category: 'INFO',
      service: ['Downloads'],
      description: 'Maintenance',
    });
    expect(Math.abs(Date.parse(created.data.date) - Date.now())).toBeLessThan(60_000);
    expect(created.data.expires).toBeNull();
    const past = await build({ expires: new Date('2026-01-01T00:00:00Z') });
    const res = await api.ok(busops, alertsApi.resolve, { params: alertId(past.id) });
    expect(res.data.expires).toBe('2026-01-01T00:00:00.000Z');
  });

  it.for([
    ['unknown category', { ...body, category: 'SEVERE' }, 'category'],
    ['no services', { ...body, service: [] }, 'service'],
    ['blank service', { ...body, service: ['  '] }, 'service'],
    ['long service', { ...body, service: ['x'.repeat(101)] }, 'service'],
    ['empty description', { ...body, description: '' }, 'description'],
    ['long description', { ...body, description: 'x'.repeat(2001) }, 'description'],
    ['non-http link', { ...body, links: { Bad: 'javascript:alert(1)' } }, 'links'],
    ['bad date', { ...body, date: 'yesterday' }, 'date'],
    ['expiry before start', { ...body, expires: '2026-11-20T07:00:00Z' }, 'expires'],
  ] as const)('refuses %s with 400', async ([_what, payload, field], { api, database, cast: { busops } }) => {
    const refusal = await api.refused(busops, alertsApi.create, payload, 400);
    expect(refusal).toMatchObject({ status: 'FAILURE', code: 'BAD_REQUEST' });
    expect(refusal.err).toContain(field);
    expect(await database.db.select().from(alerts)).toHaveLength(0);
  });

  it('refuses an expiry before the default start (now) and before the stored start on edit', async ({
    api,
    cast: { busops },
    alert: { build },
  }) => {
    await api.refused(
      busops,
      alertsApi.create,
      { ...body, date: undefined, expires: '2000-01-01T00:00:00Z' },
      400,
    );
    const a = await build({ date: new Date('2026-06-01T00:00:00Z') });
    const edit = await api.refused(
      busops,
      alertsApi.edit,
      { params: alertId(a.id), body: { ...body, date: undefined, expires: '2026-05-01T00:00:00Z' } },
      400,
    );
    expect(edit.err).toContain('expires must be after date');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async ({ api, cast: { busops } }) => {
    const edit = await api.refused(busops, alertsApi.edit, { params: alertId(999999), body }, 404);
    expect(edit).toMatchObject({ status: 'FAILURE', code: 'NOT_FOUND' });
    await api.refused(busops, alertsApi.resolve, { params: alertId(999999), body: {} }, 404);
    await api.refused(busops, alertsApi.resolve, { params: { id: 'abc' }, body: {} }, 400);
  });
});
