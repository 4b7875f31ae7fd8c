import type { AuditAction } from '@lp/contract/audit/actions';
import { auditPageResponseSchema } from '@lp/contract/audit/schemas';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import type { Db } from '../../db/database.ts';
import type { Principal } from '../../platform/principal.ts';
import { type AuditActor, auditActor, automatedActor, recordAudit } from './service.ts';

/*
 * POST /api/audit (+ /count, /distinct), issue 13 §1: entries recorded with recordAudit, read back through
 * the query engine by the people the rule lets in (account administrators, support coordinators, business
 * operations and support staff), per account or across accounts.
 */
const ACME = '5400001';
const OTHER = '5400002';
const BLOCKED = '5400003';
let database: TestDatabase;
let app: FastifyInstance;
const headers: Record<string, Record<string, string>> = {};

const pat: Principal = {
  userId: '00000000-0000-4000-8000-0000000000aa',
  email: 'pat@acme.example',
  name: 'Pat',
  vendorRoles: [],
  via: 'session',
  origin: { requestId: 'req-pat', clientRequestId: null, clientIp: '198.51.100.4' },
};
const patsToken = auditActor({ ...pat, via: 'token', tokenId: 'tok-1' });

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

/** Acme: 12 entries (6 IP rules by Pat, 4 contacts by Pat's token, 2 automated); Other: 3; no account: 2. */
async function seed() {
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
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  app = await createTestApp(database);
  await buildAccount(db, { customerNumber: ACME, name: 'Acme Audit Inc.' });
  await buildAccount(db, { customerNumber: OTHER, name: 'Other Corp' });
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
  await addContact(db, ACME, 'admin@acme.example', contactRoles.admin);
  await addContact(db, ACME, 'viewer@acme.example', contactRoles.viewer);
  await addContact(db, ACME, 'asc@acme.example', contactRoles.coordinator);
  await addContact(db, OTHER, 'admin@other.example', contactRoles.admin);
  await addContact(db, BLOCKED, 'admin@acme.example', contactRoles.admin);
  headers.admin = (await signInAs(db, 'admin@acme.example')).headers;
  headers.viewer = (await signInAs(db, 'viewer@acme.example')).headers;
  headers.asc = (await signInAs(db, 'asc@acme.example')).headers;
  headers.outsider = (await signInAs(db, 'admin@other.example')).headers;
  headers.support = (await signInAs(db, 'support@vendor.example', { vendorRoles: ['support'] })).headers;
  headers.busops = (await signInAs(db, 'busops@vendor.example', { vendorRoles: ['busops'] })).headers;
  headers.vendorAdmin = (await signInAs(db, 'admin@vendor.example', { vendorRoles: ['admin'] })).headers;
  headers.sales = (await signInAs(db, 'sales@vendor.example', { vendorRoles: ['sales'] })).headers;
  await seed();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

interface Body {
  customerNumber?: string;
  filter?: FilterRule;
  sorting?: SortRule[];
  offset?: number;
  token?: string | null;
  limit?: number;
}

const post = (who: string, url: string, body: object) =>
  app.inject({ method: 'POST', url, headers: headers[who], payload: body });

async function page(who: string, body: Body) {
  const res = await post(who, '/api/audit', body);
  expect(res.statusCode, res.body).toBe(200);
  return auditPageResponseSchema.parse(res.json());
}

const all = (...criteria: FilterRule['criteria']): FilterRule => ({ condition: 'ALL', criteria });

describe('who may read', () => {
  it.each(['admin', 'asc', 'support', 'busops', 'vendorAdmin'])('%s reads the account log', async (who) => {
    const answer = await page(who, { customerNumber: ACME, limit: 100 });
    expect(answer.data).toHaveLength(12);
    expect(new Set(answer.data.map((r) => r.account))).toEqual(new Set([ACME]));
  });

  it.each(['viewer', 'sales'])('%s gets 403', async (who) => {
    for (const url of ['/api/audit', '/api/audit/count']) {
      const res = await post(who, url, { customerNumber: ACME });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    }
  });

  it('an outsider gets the same 403 as for an account that does not exist', async () => {
    const theirs = await post('outsider', '/api/audit', { customerNumber: ACME });
    const none = await post('outsider', '/api/audit', { customerNumber: '5499999' });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermissionPage });
    expect(none.json()).toEqual(theirs.json());
    const distinct = await post('outsider', '/api/audit/distinct', { customerNumber: ACME, key: 'actor' });
    expect(distinct.statusCode).toBe(403);
  });

  it('an export-blocked account answers 403 with the export text', async () => {
    const res = await post('admin', '/api/audit', { customerNumber: BLOCKED });
    expect(res.statusCode).toBe(403);
    expect(res.json().err).toBe(messages.exportDenied);
  });

  it('without a session: 401', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/audit', payload: { customerNumber: ACME } });
    expect(res.statusCode).toBe(401);
  });
});

describe('the cross-account view', () => {
  it.each(['support', 'busops', 'vendorAdmin'])('%s reads every account, each row naming it', async (who) => {
    const answer = await page(who, { limit: 100 });
    const accounts = answer.data.map((r) => r.account ?? 'none');
    const perAccount = (a: string) => accounts.filter((x) => x === a).length;
    expect([ACME, OTHER, BLOCKED, 'none'].map(perAccount)).toEqual([12, 3, 1, 2]);
    const count = await post(who, '/api/audit/count', {});
    expect(count.json()).toEqual({ status: 'SUCCESS', data: 18 });
  });

  it.each(['admin', 'asc', 'viewer', 'outsider', 'sales'])('%s gets 403', async (who) => {
    for (const [url, body] of [
      ['/api/audit', {}],
      ['/api/audit/count', {}],
      ['/api/audit/distinct', { key: 'account' }],
    ] as const) {
      const res = await post(who, url, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    }
  });

  it('filters by account', async () => {
    const answer = await page('support', {
      filter: all({ name: 'account', method: 'EQUALS', value: OTHER }),
    });
    expect(answer.data.map((r) => r.objectId)).toEqual(['other-3', 'other-2', 'other-1']);
  });
});

describe('rows, filters, sort and paging', () => {
  it('newest first by default, with who, what, the change, the request and the address', async () => {
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

  it('filters on action, actor, object and time range, and counts the same rows', async () => {
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
      const count = await post('admin', '/api/audit/count', { customerNumber: ACME, filter });
      expect(count.json().data).toBe(n);
    }
  });

  it('sorts on any column, the entry id breaking ties', async () => {
    const { data } = await page('admin', {
      customerNumber: ACME,
      sorting: [{ name: 'action', direction: 'asc' }],
      limit: 100,
    });
    expect(data.map((r) => r.action)).toEqual([...data.map((r) => r.action)].sort());
    expect(data.slice(0, 2).map((r) => r.objectId)).toEqual(['obj-1', 'obj-3']);
  });

  it('pages by offset and by continuation token without gaps or repeats', async () => {
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

  it('distinct values of a column', async () => {
    const res = await post('admin', '/api/audit/distinct', { customerNumber: ACME, key: 'action' });
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: ['ip-rules.changed', 'ledger.adjustment.posted', 'portal-access.contact.changed'],
    });
  });

  it('an unknown filter, sort or distinct column is a 400 FAILURE', async () => {
    const bad = [
      ['/api/audit', { filter: all({ name: 'hash', method: 'EQUALS', value: 'x' }) }],
      ['/api/audit', { filter: all({ name: 'before', method: 'ISDEFINED' }) }],
      ['/api/audit/count', { filter: all({ name: 'prev_hash', method: 'EQUALS', value: 'x' }) }],
      ['/api/audit', { sorting: [{ name: 'chain', direction: 'asc' }] }],
      ['/api/audit', { sorting: [{ name: 'after', direction: 'asc' }] }],
      ['/api/audit/distinct', { key: 'before' }],
    ] as const;
    for (const [url, body] of bad) {
      const res = await post('admin', url, { customerNumber: ACME, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: expect.any(String) });
    }
  });
});
