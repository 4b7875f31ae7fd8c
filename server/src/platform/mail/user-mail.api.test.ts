import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { emails } from '../../db/schema.ts';

/*
 * Issue 20 §7 (decision 045): e-mails users ask for are limited per user and per account per hour, counted in
 * the database, so the limits hold across API nodes. Two apps on one database stand for two nodes.
 */

const ACME = '4800001';
const OTHER = '4800002';
const limits = { MAIL_USER_LIMIT_PER_HOUR: '3', MAIL_ACCOUNT_LIMIT_PER_HOUR: '5' };
let database: TestDatabase;
let nodeA: FastifyInstance;
let nodeB: FastifyInstance;
const headers: Record<string, Record<string, string>> = {};
const servers: Record<string, string> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  nodeA = await createTestApp(database, limits);
  nodeB = await createTestApp(database, limits);
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  for (const cn of [ACME, OTHER]) {
    await buildAccount(db, { customerNumber: cn, name: `Account ${cn}` });
    servers[cn] = await buildElasticServer(db, cn, `CLS-${cn}`);
    await buildElasticEntitlement(db, cn, {
      activationId: `ACT-${cn}`,
      quantity: 1000,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
  }
  for (const [who, cn] of [
    ['ann', ACME],
    ['bob', ACME],
    ['cid', ACME],
    ['oz', OTHER],
  ]) {
    await addContact(db, cn, `${who}@mail.example`, contactRoles.admin);
    headers[who] = (await signInAs(db, `${who}@mail.example`)).headers;
  }
});

afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await database?.close();
});

const statement = (node: FastifyInstance, who: string, customerNumber = ACME) =>
  node.inject({
    method: 'POST',
    url: '/api/emailweek',
    headers: headers[who],
    payload: {
      customerid: customerNumber,
      customername: 'x',
      server: servers[customerNumber],
      activationid: `ACT-${customerNumber}`,
      date: '2026-03-31T10:00:00.000Z',
    },
  });
const queued = async (customerNumber: string) =>
  database.db.$count(emails, eq(emails.customerNumber, customerNumber));

describe('e-mails users ask for', () => {
  it('stop at the per-user limit with 429 and its text, whichever node is asked; nothing more is queued', async () => {
    const statuses = [];
    for (const node of [nodeA, nodeB, nodeA]) statuses.push((await statement(node, 'ann')).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const before = await queued(ACME);
    for (const node of [nodeB, nodeA]) {
      const refused = await statement(node, 'ann');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        status: 'FAILURE',
        code: 'RATE_LIMITED',
        err: messages.userMailLimit(3),
      });
      expect(refused.headers['cache-control']).toBe('no-store');
    }
    expect(await queued(ACME)).toBe(before);
    // Each queued e-mail names the user who asked for it.
    const rows = await database.db.select().from(emails).where(eq(emails.customerNumber, ACME));
    expect(new Set(rows.map((r) => r.requestedBy))).toEqual(new Set([expect.any(String)]));
  });

  it('another user of the account may still send, up to the per-account limit', async () => {
    expect((await statement(nodeA, 'bob')).statusCode).toBe(200);
    expect((await statement(nodeB, 'bob')).statusCode).toBe(200);
    // Ann 3 + Bob 2 = the account's 5: Cid, who has sent nothing, is refused with the account's text.
    const before = await queued(ACME);
    const refused = await statement(nodeA, 'cid');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().err).toBe(messages.accountMailLimit(5));
    expect(await queued(ACME)).toBe(before);
  });

  it('another account is not affected', async () => {
    expect((await statement(nodeB, 'oz', OTHER)).statusCode).toBe(200);
    expect(await queued(OTHER)).toBe(1);
  });

  it('a burst on two nodes at once queues exactly the limit', async () => {
    const third = '4800003';
    await buildAccount(database.db, { customerNumber: third, name: 'Burst' });
    servers[third] = await buildElasticServer(database.db, third, `CLS-${third}`);
    await buildElasticEntitlement(database.db, third, {
      activationId: `ACT-${third}`,
      quantity: 1000,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    await addContact(database.db, third, 'burst@mail.example', contactRoles.admin);
    headers.burst = (await signInAs(database.db, 'burst@mail.example')).headers;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => statement(i % 2 ? nodeA : nodeB, 'burst', third)),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(9).fill(429)]);
    expect(await queued(third)).toBe(3);
  });
});
