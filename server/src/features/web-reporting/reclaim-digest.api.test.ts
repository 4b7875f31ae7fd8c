import os from 'node:os';
import { shiftDay } from '@lp/domain/spend-forecast';
import { weekStart } from '@lp/domain/web-reporting';
import { asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { addLease, addWebPerson, hoursAgo } from '../../../test/web-leases.ts';
import { emails, notices } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { runNotices } from '../notices/service.ts';

/* Issue 24 (decision 071): the reclaim digest, a weekly notice of the named web seats nobody used for 30 days. */

const CN = acme.customerNumber;
const NAMED = 'RD-NU';
const today = new Date().toISOString().slice(0, 10);

const test = apiTest.extend(
  'ctx',
  { scope: 'file' },
  async ({ app, database, cast: _accounts }): Promise<AppContext> => {
    const { db } = database;
    await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'rd_fluids' });
    await buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber: NAMED,
      licenseModel: 'Named User',
      quantity: 5,
      startDate: dayFromToday(-400),
      endDate: dayFromToday(300),
    });
    const seat = async (email: string, lastSession: string | null) => {
      const id = await addWebPerson(db, CN, email);
      await db.execute(
        sql`insert into web_named_seats (customer_number, part_number, user_id, assigned_at)
          values (${CN}, ${NAMED}, ${id}, ${hoursAgo(24 * 100)})`,
      );
      if (lastSession)
        await addLease(db, {
          customerNumber: CN,
          partNumber: NAMED,
          poolKind: 'named',
          email,
          userId: id,
          start: lastSession,
          end: lastSession,
        });
    };
    await seat('idle@acme.example', hoursAgo(24 * 45));
    await seat('never@acme.example', null);
    await seat('busy@acme.example', hoursAgo(24 * 2));
    return {
      config: loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }),
      database,
      db,
      secret: Buffer.alloc(32),
      log: app.log,
    };
  },
);

test('the notices job mails the account’s administrators the named seats unused for 30 days, once a week', async ({
  ctx,
}) => {
  const sameWeek = weekStart(today) === today ? shiftDay(today, 1) : shiftDay(today, -1);
  await runNotices(ctx, today);
  await runNotices(ctx, sameWeek);
  const found = await ctx.db
    .select()
    .from(notices)
    .where(eq(notices.customerNumber, CN))
    .orderBy(asc(notices.id));
  expect(found.map((n) => [n.type, n.objectId, n.threshold])).toEqual([
    ['web-seats-inactive', weekStart(today), 30],
  ]);
  const idleDay = hoursAgo(24 * 45).slice(0, 10);
  expect(found[0].text).toBe(
    `2 named web seats have had no session for 30 days or more: never <never@acme.example> (Fluids Premium - Named User, no session yet); idle <idle@acme.example> (Fluids Premium - Named User, last session ${idleDay}). Reclaim them on Web > Reporting.`,
  );
  const mails = await ctx.db.select().from(emails).where(eq(emails.customerNumber, CN));
  expect(mails).toHaveLength(1);
  expect(mails[0].to).toContain('boss@acme.example');
  expect(mails[0].body).toContain('never@acme.example');
  expect(mails[0].body).not.toContain('busy@acme.example');

  // The next week's run finds them again.
  await runNotices(ctx, shiftDay(weekStart(today), 7));
  expect(await ctx.db.select().from(emails).where(eq(emails.customerNumber, CN))).toHaveLength(2);
});
