import { messages } from '@lp/contract/common/errors';
import type { FilterRule } from '@lp/contract/query/schemas';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import { formatDateTime } from '@lp/domain/dates';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildProduct } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, other } from '../../../test/api-fixture.ts';
import { addLease, addWebGroup, addWebPerson, hoursAgo } from '../../../test/web-leases.ts';

/* Issue 24 (decision 071): /web-transactions, the account's leases and denials through the query engine. */

const CN = acme.customerNumber;
/** An account under export control, whose admin is Acme's boss. */
const BLOCKED = '4100024';
/** An account with no web sessions. */
const EMPTY = '4100026';
const NAMED = 'WT-NU';
const SHARED = 'WT-SW';
const mail = (who: string) => `${who}@acme.example`;

const at = {
  ann: hoursAgo(5),
  annEnd: hoursAgo(4),
  bob: hoursAgo(3),
  bobEnd: hoursAgo(2.5),
  cy: hoursAgo(2),
  dan: hoursAgo(1),
};
const shown = (iso: string) => formatDateTime(new Date(iso));

const test = apiTest.extend('rows', { scope: 'file' }, async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'wt_fluids' });
  await buildProduct(db, SHARED, { name: 'Mechanical - Shared Web', featureName: 'wt_mech' });
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Pending' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  await buildAccount(db, { customerNumber: EMPTY, name: 'Empty' });
  await addContact(db, EMPTY, 'boss@acme.example', contactRoles.admin);
  const ann = await addWebPerson(db, CN, mail('ann'));
  const bob = await addWebPerson(db, CN, mail('bob'));
  const design = await addWebGroup(db, CN, 'Design', [bob]);
  const lease = { customerNumber: CN };
  await addLease(db, {
    ...lease,
    partNumber: NAMED,
    poolKind: 'named',
    email: mail('ann'),
    userId: ann,
    start: at.ann,
    end: at.annEnd,
    client: 'Chrome 131',
  });
  await addLease(db, {
    ...lease,
    partNumber: SHARED,
    email: mail('bob'),
    userId: bob,
    groupId: design,
    start: at.bob,
    end: at.bobEnd,
    outcome: 'idle-timeout',
    client: '=HYPERLINK("http://x")',
  });
  await addLease(db, { ...lease, partNumber: SHARED, email: mail('cy'), start: at.cy, denial: 'pool-full' });
  await addLease(db, {
    ...lease,
    partNumber: SHARED,
    email: mail('dan'),
    start: at.dan,
    product: 'Mech Cloud',
  });
  // Another account's session is never Acme's.
  await addLease(db, {
    customerNumber: other.customerNumber,
    partNumber: SHARED,
    email: 'x@other.example',
    start: at.dan,
  });
  return { ann, bob };
});

const page = <B extends object = object>(body?: B) =>
  ({ customerNumber: CN, ...body }) as { customerNumber: string } & B;

describe('listWebTransactions', () => {
  test('answers one row per session and denial of the account, newest first, in the page’s words', async ({
    api,
    cast: { reader },
    rows: _rows,
  }) => {
    const res = await api.ok(reader, webSessionsApi.page, page());
    expect(res.data.map((r) => r.Email)).toEqual([mail('dan'), 'cy@acme.example', mail('bob'), mail('ann')]);
    const [dan, cy, bob, ann] = res.data;
    expect(ann).toEqual({
      Start: shown(at.ann),
      End: shown(at.annEnd),
      Duration: 60,
      Email: mail('ann'),
      UserName: 'ann',
      Group: '',
      PartNumber: NAMED,
      Product: 'Fluids Premium - Named User',
      Application: 'Fluids Online',
      Client: 'Chrome 131',
      Outcome: 'Released',
      DenialReason: '',
    });
    expect(bob).toMatchObject({ Group: 'Design', Outcome: 'Timed out (idle)', Duration: 30 });
    // A denial has no end or duration; an unknown person no name.
    expect(cy).toMatchObject({
      End: null,
      Duration: null,
      UserName: '',
      Outcome: 'Denied',
      DenialReason: 'Pool full',
    });
    // An open session: no end, its duration so far.
    expect(dan).toMatchObject({ End: null, Outcome: 'Open', Application: 'Mech Cloud' });
    expect(dan.Duration).toBeGreaterThanOrEqual(60);
    expect(res.token).toBeNull();
  });

  test('pages by continuation token and by offset', async ({ api, cast: { boss }, rows: _rows }) => {
    const first = await api.ok(boss, webSessionsApi.page, page({ limit: 3, token: null }));
    expect(first.data.map((r) => r.Email)).toEqual([mail('dan'), mail('cy'), mail('bob')]);
    expect(first.token).toEqual(expect.any(String));
    const next = await api.ok(boss, webSessionsApi.page, page({ limit: 3, token: first.token }));
    expect(next.data.map((r) => r.Email)).toEqual([mail('ann')]);
    expect(next.token).toBeNull();
    const offset = await api.ok(boss, webSessionsApi.page, page({ limit: 2, offset: 2 }));
    expect(offset.data.map((r) => r.Email)).toEqual([mail('bob'), mail('ann')]);
    const sorted = await api.ok(
      boss,
      webSessionsApi.page,
      page({ sorting: [{ name: 'Email', direction: 'asc' }], limit: 2 }),
    );
    expect(sorted.data.map((r) => r.Email)).toEqual([mail('ann'), mail('bob')]);
  });

  test('filters, counts and lists distinct values through the query engine', async ({
    api,
    cast: { reader },
    rows: _rows,
  }) => {
    const denied: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'Outcome', method: 'EQUALS', value: 'Denied' }],
    };
    expect(
      (await api.ok(reader, webSessionsApi.page, page({ filter: denied }))).data.map((r) => r.Email),
    ).toEqual([mail('cy')]);
    const group: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'Group', method: 'CONTAINS', value: 'des', casefold: true }],
    };
    expect(
      (await api.ok(reader, webSessionsApi.page, page({ filter: group }))).data.map((r) => r.Email),
    ).toEqual([mail('bob')]);
    const longer: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'Duration', method: '>=', value: 45 }],
    };
    expect((await api.ok(reader, webSessionsApi.count, page({ filter: longer }))).data).toBe(2);
    expect((await api.ok(reader, webSessionsApi.count, page())).data).toBe(4);
    const outcomes = await api.ok(reader, webSessionsApi.distinct, page({ key: 'Outcome' }));
    expect([...outcomes.data].sort()).toEqual(['Denied', 'Open', 'Released', 'Timed out (idle)']);
    const pools = await api.ok(reader, webSessionsApi.distinct, page({ key: 'PartNumber', filter: denied }));
    expect(pools.data).toEqual([SHARED]);
  });

  test('refuses unknown columns in the engine’s words, and bad input, with 400', async ({
    api,
    cast: { boss },
  }) => {
    const unknown: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'Nope', method: 'EQUALS', value: 'x' }],
    };
    const refused = await api.refused(boss, webSessionsApi.page, page({ filter: unknown }), 400);
    expect(refused.err).toMatch(/^Unknown filter column .Nope.$/);
    expect((await api.refused(boss, webSessionsApi.count, page({ filter: unknown }), 400)).err).toBe(
      refused.err,
    );
    const sort = await api.refused(boss, webSessionsApi.page, page({ sorting: { name: 'Nope' } }), 400);
    expect(sort.err).toMatch(/^Unknown sort column/);
    const distinct = await api.refused(boss, webSessionsApi.distinct, page({ key: 'Nope' }), 400);
    expect(distinct.err).toBe("Unknown column 'Nope'");
    await api.refused(boss, webSessionsApi.page, page({ limit: 10_001 }), 400);
  });

  test('refuses outsiders as an unknown account, export-blocked accounts with the compliance text, anonymous 401', async ({
    api,
    cast: { boss, outsider },
  }) => {
    for (const operation of [webSessionsApi.page, webSessionsApi.count, webSessionsApi.transactionsAsOf]) {
      const outsiders = await api.refused(outsider, operation, page(), 403);
      expect(outsiders).toEqual(await api.refused(outsider, operation, { customerNumber: '9999999' }, 403));
      expect(outsiders.err).toBe(messages.noPermissionPage);
      expect((await api.refused(boss, operation, { customerNumber: BLOCKED }, 403)).err).toBe(
        messages.exportDenied,
      );
      await api.refused(anonymous, operation, page(), 401);
    }
    expect(
      (await api.refused(boss, webSessionsApi.distinct, { customerNumber: BLOCKED, key: 'Email' }, 403)).err,
    ).toBe(messages.exportDenied);
  });
});

describe('webTransactionsAsOf', () => {
  test('answers the latest start or end of the account, or null when it has none', async ({
    api,
    cast: { boss, reader },
    rows: _rows,
  }) => {
    expect((await api.ok(reader, webSessionsApi.transactionsAsOf, page())).data).toEqual({
      asOf: shown(at.dan),
    });
    expect((await api.ok(boss, webSessionsApi.transactionsAsOf, { customerNumber: EMPTY })).data).toEqual({
      asOf: null,
    });
  });
});
