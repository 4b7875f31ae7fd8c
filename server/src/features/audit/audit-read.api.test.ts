import type { AuditAction } from '@lp/contract/audit/actions';
import { auditApi } from '@lp/contract/audit/api';
import type { AuditPageRequest } from '@lp/contract/audit/schemas';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule } from '@lp/contract/query/schemas';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import type { Db } from '../../db/database.ts';
import type { Principal } from '../../platform/principal.ts';
import { type AuditActor, auditActor, automatedActor, recordAudit } from './service.ts';

/*
 * POST /api/audit (+ /count, /distinct), issue 13 §1: entries recorded with recordAudit, read back through
 * the query engine by the people the rule lets in (account administrators, support coordinators, business
 * operations and support staff), per account or across accounts.
 */
const ACME = acme.customerNumber;
const OTHER = other.customerNumber;
const BLOCKED = '5400003';

const pat: Principal = {
  userId: '00000000-0000-4000-8000-0000000000aa',
  email: 'pat@acme.example',
  name: 'Pat',
  vendorRoles: [],
  via: 'session',
  origin: { requestId: 'req-pat', clientRequestId: null, clientIp: '198.51.100.4' },
};
const patsToken = auditActor({ ...pat, via: 'token', tokenId: 'tok-1' });

type Who = 'admin' | 'viewer' | 'asc' | 'outsider' | 'support' | 'busops' | 'vendorAdmin' | 'sales';

const it = apiTest
  /**
   * Who reads the log, by the names the tests use: Acme's administrator, viewer and support coordinator (asc),
   * Other's administrator (outsider), and vendor staff; Acme's administrator administers the blocked account too.
   */
  .extend('people', { scope: 'file' }, async ({ database, signIn, cast }): Promise<Record<Who, Caller>> => {
    const { db } = database;
    await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
    await addContact(db, BLOCKED, cast.boss.email, contactRoles.admin);
    await addContact(db, ACME, 'asc@acme.example', contactRoles.coordinator);
    return {
      admin: cast.boss,
      viewer: cast.reader,
      asc: await signIn('asc@acme.example'),
      outsider: cast.outsider,
      support: cast.support,
      busops: cast.busops,
      vendorAdmin: await signIn('admin@vendor.example', { vendorRoles: ['admin'] }),
      sales: cast.sales,
    };
  })
  /** A page of the log as `who` reads it. */
  .extend('page', { scope: 'file' }, async ({ api, people }) => {
    return (who: Who, body: AuditPageRequest) => api.ok(people[who], auditApi.page, body);
  });

/** Acme: 12 entries (6 IP rules by Pat, 4 contacts by Pat's token, 2 automated); Other: 3; no account: 2. */
it.beforeAll(async ({ database, people: _people }) => {
  const write = (
    actor: AuditActor,
    customerNumber: string | null,
    action: AuditAction,
    id: string,
    n: number,
  ) =>
    database.db.transaction((tx) =>
      recordAudit(tx as unknown as Db, actor, [
        {
          customerNumber,
          action,
          object: { type: action.split('.')[0] as string, id },
          before: { n: n - 1 },
          after: { n },
        },
      ]),
    );
  for (let i = 1; i <= 12; i++) {
    const [actor, action]: [AuditActor, AuditAction] =
      i % 6 === 0
        ? [automatedActor, 'ledger.adjustment.posted']
        : i % 2 === 0
          ? [patsToken, 'portal-access.contact.changed']
          : [auditActor(pat), 'ip-rules.changed'];
    await write(actor, ACME, action, `obj-${i}`, i);
  }
  for (let i = 1; i <= 3; i++) await write(automatedActor, OTHER, 'ip-rules.changed', `other-${i}`, i);
  await write(automatedActor, BLOCKED, 'ip-rules.changed', 'blocked-1', 1);
  for (let i = 1; i <= 2; i++) await write(auditActor(pat), null, 'auth.sign-in.succeeded', pat.email, i);
});

const all = (...criteria: FilterRule['criteria']): FilterRule => ({ condition: 'ALL', criteria });

describe('who may read', () => {
  it.for<Who>(['admin', 'asc', 'support', 'busops', 'vendorAdmin'])(
    '%s reads the account log',
    async (who, { page }) => {
      const answer = await page(who, { customerNumber: ACME, limit: 100 });
      expect(answer.data).toHaveLength(12);
      expect(new Set(answer.data.map((r) => r.account))).toEqual(new Set([ACME]));
    },
  );

  it.for<Who>(['viewer', 'sales'])('%s gets 403', async (who, { api, people }) => {
    for (const operation of [auditApi.page, auditApi.count]) {
      const refusal = await api.refused(people[who], operation, { customerNumber: ACME }, 403);
      expect(refusal).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    }
  });

  it('an outsider gets the same 403 as for an account that does not exist', async ({
    api,
    people: { outsider },
  }) => {
    const theirs = await api.refused(outsider, auditApi.page, { customerNumber: ACME }, 403);
    const none = await api.refused(outsider, auditApi.page, { customerNumber: '5499999' });
    expect(theirs).toMatchObject({ status: 'FAILURE', err: messages.noPermissionPage });
    expect(none).toEqual(theirs);
    await api.refused(outsider, auditApi.distinct, { customerNumber: ACME, key: 'actor' }, 403);
  });

  it('an export-blocked account answers 403 with the export text', async ({ api, people: { admin } }) => {
    const refusal = await api.refused(admin, auditApi.page, { customerNumber: BLOCKED }, 403);
    expect(refusal.err).toBe(messages.exportDenied);
  });

  it('without a session: 401', async ({ api }) => {
    await api.refused(anonymous, auditApi.page, { customerNumber: ACME }, 401);
  });
});

describe('the cross-account view', () => {
  it.for<Who>(['support', 'busops', 'vendorAdmin'])(
    '%s reads every account, each row naming it',
    async (who, { api, people, page }) => {
      const answer = await page(who, { limit: 100 });
      const accounts = answer.data.map((r) => r.account ?? 'none');
      const perAccount = (a: string) => accounts.filter((x) => x === a).length;
      expect([ACME, OTHER, BLOCKED, 'none'].map(perAccount)).toEqual([12, 3, 1, 2]);
      expect(await api.ok(people[who], auditApi.count, {})).toEqual({ status: 'SUCCESS', data: 18 });
    },
  );

  it.for<Who>(['admin', 'asc', 'viewer', 'outsider', 'sales'])(
    '%s gets 403',
    async (who, { api, people }) => {
      for (const [operation, body] of [
        [auditApi.page, {}],
        [auditApi.count, {}],
        [auditApi.distinct, { key: 'account' }],
      ] as const) {
        const refusal = await api.refused(people[who], operation, body, 403);
        expect(refusal).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
      }
    },
  );

  it('filters by account', async ({ page }) => {
    const answer = await page('support', {
      filter: all({ name: 'account', method: 'EQUALS', value: OTHER }),
    });
    expect(answer.data.map((r) => r.objectId)).toEqual(['other-3', 'other-2', 'other-1']);
  });
});

describe('rows, filters, sort and paging', () => {
  it('newest first by default, with who, what, the change, the request and the address', async ({ page }) => {
    const { data } = await page('admin', { customerNumber: ACME, limit: 100 });
    expect(data.map((r) => r.objectId)).toEqual(Array.from({ length: 12 }, (_, i) => `obj-${12 - i}`));
    expect(data.find((r) => r.objectId === 'obj-3')).toMatchObject({
      account: ACME,
      actorKind: 'user',
      actor: 'pat@acme.example',
      action: 'ip-rules.changed',
      objectType: 'ip-rules',
      before: { n: 2 },
      after: { n: 3 },
      requestId: 'req-pat',
      clientIp: '198.51.100.4',
    });
    expect(data.find((r) => r.objectId === 'obj-4')).toMatchObject({ actorKind: 'api-token' });
    expect(data.find((r) => r.objectId === 'obj-6')).toMatchObject({
      actorKind: 'automated',
      actor: 'Automated Action',
      requestId: null,
      clientIp: null,
    });
    for (const r of data) expect(r.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('filters on action, actor, object and time range, and counts the same rows', async ({
    api,
    people: { admin },
    page,
  }) => {
    const cases: [FilterRule, number][] = [
      [all({ name: 'action', method: 'EQUALS', value: 'ip-rules.changed' }), 6],
      [all({ name: 'actorKind', method: 'EQUALS', value: 'api-token' }), 4],
      [all({ name: 'actor', method: 'CONTAINS', value: 'AUTOMATED', casefold: true }), 2],
      [all({ name: 'objectId', method: 'EQUALS', value: 'obj-7' }), 1],
      [all({ name: 'objectType', method: 'STARTSWITH', value: 'portal' }), 4],
      [
        all({ name: 'time', method: 'DATERANGE', value: ['2000-01-01T00:00:00Z', '2999-01-01T00:00:00Z'] }),
        12,
      ],
      [all({ name: 'time', method: 'AFTER', value: '2999-01-01T00:00:00Z' }), 0],
      [
        all(
          { name: 'action', method: 'EQUALS', value: 'ip-rules.changed' },
          { name: 'clientIp', method: 'EQUALS', value: '198.51.100.4' },
        ),
        6,
      ],
    ];
    for (const [filter, n] of cases) {
      const { data } = await page('admin', { customerNumber: ACME, filter, limit: 100 });
      expect(data, JSON.stringify(filter)).toHaveLength(n);
      const count = await api.ok(admin, auditApi.count, { customerNumber: ACME, filter });
      expect(count.data).toBe(n);
    }
  });

  it('sorts on any column, the entry id breaking ties', async ({ page }) => {
    const { data } = await page('admin', {
      customerNumber: ACME,
      sorting: [{ name: 'action', direction: 'asc' }],
      limit: 100,
    });
    expect(data.map((r) => r.action)).toEqual([...data.map((r) => r.action)].sort());
    expect(data.slice(0, 2).map((r) => r.objectId)).toEqual(['obj-1', 'obj-3']);
  });

  it('pages by offset and by continuation token without gaps or repeats', async ({ page }) => {
    const full = (await page('admin', { customerNumber: ACME, limit: 100 })).data.map((r) => r.id);
    const second = await page('admin', { customerNumber: ACME, offset: 5, limit: 5 });
    expect(second.data.map((r) => r.id)).toEqual(full.slice(5, 10));
    const seen: number[] = [];
    let token: string | null = null;
    do {
      const answer: { data: { id: number }[]; token: string | null } = await page('admin', {
        customerNumber: ACME,
        limit: 5,
        token,
      });
      seen.push(...answer.data.map((r) => r.id));
      token = answer.token;
    } while (token);
    expect(seen).toEqual(full);
  });

  it('distinct values of a column', async ({ api, people: { admin } }) => {
    expect(await api.ok(admin, auditApi.distinct, { customerNumber: ACME, key: 'action' })).toEqual({
      status: 'SUCCESS',
      data: ['ip-rules.changed', 'ledger.adjustment.posted', 'portal-access.contact.changed'],
    });
  });

  it('an unknown filter, sort or distinct column is a 400 FAILURE', async ({ api, people: { admin } }) => {
    const bad = [
      [auditApi.page, { filter: all({ name: 'hash', method: 'EQUALS', value: 'x' }) }],
      [auditApi.page, { filter: all({ name: 'before', method: 'ISDEFINED' }) }],
      [auditApi.count, { filter: all({ name: 'prev_hash', method: 'EQUALS', value: 'x' }) }],
      [auditApi.page, { sorting: [{ name: 'chain', direction: 'asc' }] }],
      [auditApi.page, { sorting: [{ name: 'after', direction: 'asc' }] }],
      [auditApi.distinct, { key: 'before' }],
    ] as const;
    for (const [operation, body] of bad) {
      const refusal = await api.refused(admin, operation, { customerNumber: ACME, ...body }, 400);
      expect(refusal, JSON.stringify(body)).toMatchObject({ status: 'FAILURE', err: expect.any(String) });
    }
  });
});
