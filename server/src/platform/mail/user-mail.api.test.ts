import { messages } from '@lp/contract/common/errors';
import { statementsApi } from '@lp/contract/statements/api';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { type Api, apiOf, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { emails } from '../../db/schema.ts';

/*
 * Issue 20 §7 (decision 045): e-mails users ask for are limited per user and per account per hour, counted in
 * the database, so the limits hold across API nodes. Two apps on one database stand for two nodes.
 */

const ACME = '4800001';
const OTHER = '4800002';

const it = apiTest
  .override('appEnv', { scope: 'file' }, { MAIL_USER_LIMIT_PER_HOUR: '3', MAIL_ACCOUNT_LIMIT_PER_HOUR: '5' })
  /** The two nodes: the file's app and a second one on the same database, with the same limits. */
  .extend('nodes', { scope: 'file' }, async ({ app, database, appEnv }, { onCleanup }) => {
    const nodeB = await createTestApp(database, appEnv);
    onCleanup(() => nodeB.close());
    return { nodeA: apiOf(app), nodeB: apiOf(nodeB) };
  })
  /** Opens an account with an elastic server and entitlement, and signs its administrators in. */
  .extend('accounts', { scope: 'file' }, async ({ database, signIn }) => {
    const { db } = database;
    const servers: Record<string, string> = {};
    await buildRateTable(db, '2025.1.0', { Solver: 2 });
    const open = async (customerNumber: string, name: string, admins: string[]) => {
      await buildAccount(db, { customerNumber, name });
      servers[customerNumber] = await buildElasticServer(db, customerNumber, `CLS-${customerNumber}`);
      await buildElasticEntitlement(db, customerNumber, {
        activationId: `ACT-${customerNumber}`,
        quantity: 1000,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      });
      const people: Caller[] = [];
      for (const who of admins) {
        await addContact(db, customerNumber, `${who}@mail.example`, contactRoles.admin);
        people.push(await signIn(`${who}@mail.example`));
      }
      return people;
    };
    const [ann, bob, cid] = await open(ACME, `Account ${ACME}`, ['ann', 'bob', 'cid']);
    const [oz] = await open(OTHER, `Account ${OTHER}`, ['oz']);
    return { ann: ann!, bob: bob!, cid: cid!, oz: oz!, open, servers };
  })
  /** Asks for the weekly statement by e-mail through a node; queued counts an account's e-mails. */
  .extend('mail', { scope: 'file' }, async ({ database, accounts: { servers } }) => ({
    statement: (node: Api, who: Caller, customerNumber = ACME) =>
      node.call(who, statementsApi.emailWeek, {
        customerid: customerNumber,
        customername: 'x',
        server: servers[customerNumber],
        activationid: `ACT-${customerNumber}`,
        date: '2026-03-31T10:00:00.000Z',
      }),
    queued: (customerNumber: string) => database.db.$count(emails, eq(emails.customerNumber, customerNumber)),
  }));

describe('e-mails users ask for', () => {
  it('stop at the per-user limit with 429 and its text, whichever node is asked; nothing more is queued', async ({
    database,
    nodes: { nodeA, nodeB },
    accounts: { ann },
    mail: { statement, queued },
  }) => {
    const statuses = [];
    for (const node of [nodeA, nodeB, nodeA]) statuses.push((await statement(node, ann)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const before = await queued(ACME);
    for (const node of [nodeB, nodeA]) {
      const refused = await statement(node, ann);
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

  it('another user of the account may still send, up to the per-account limit', async ({
    nodes: { nodeA, nodeB },
    accounts: { bob, cid },
    mail: { statement, queued },
  }) => {
    expect((await statement(nodeA, bob)).statusCode).toBe(200);
    expect((await statement(nodeB, bob)).statusCode).toBe(200);
    // Ann 3 + Bob 2 = the account's 5: Cid, who has sent nothing, is refused with the account's text.
    const before = await queued(ACME);
    const refused = await statement(nodeA, cid);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().err).toBe(messages.accountMailLimit(5));
    expect(await queued(ACME)).toBe(before);
  });

  it('another account is not affected', async ({
    nodes: { nodeB },
    accounts: { oz },
    mail: { statement, queued },
  }) => {
    expect((await statement(nodeB, oz, OTHER)).statusCode).toBe(200);
    expect(await queued(OTHER)).toBe(1);
  });

  it('a burst on two nodes at once queues exactly the limit', async ({
    nodes: { nodeA, nodeB },
    accounts: { open },
    mail: { statement, queued },
  }) => {
    const third = '4800003';
    const [burst] = await open(third, 'Burst', ['burst']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => statement(i % 2 ? nodeA : nodeB, burst!, third)),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(9).fill(429)]);
    expect(await queued(third)).toBe(3);
  });
});
