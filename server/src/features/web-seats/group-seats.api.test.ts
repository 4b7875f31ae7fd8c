import { describe, expect } from 'vitest';
import { buildAccount, buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import {
  addDirectSeat,
  addGroupPool,
  addMember,
  addWebGroup,
  addWebUser,
  removeMember,
  seatsOf,
  setWebUserState,
} from './directory-rows.ts';
import { applyGroupSeats } from './service.ts';

/*
 * Issue 24 (decision 071): applyGroupSeats, which web-directory calls in its own transaction after every
 * membership or state change, brings the named seats in line with the directory.
 */

const NAMED = 'GS-NU';
const SHARED = 'GS-SW';
const ENDED = 'GS-ENDED';

let accounts = 0;
/** A fresh account with a named pool of 3 seats, a shared pool of 5 and a named product whose lines ended. */
async function account(db: Db): Promise<string> {
  const customerNumber = `47${String(++accounts).padStart(5, '0')}`;
  await buildAccount(db, { customerNumber, name: `Seats ${accounts}` });
  const line = (partNumber: string, licenseModel: string, quantity: number, end: number) =>
    buildEntitlement(db, customerNumber, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate: dayFromToday(-100),
      endDate: dayFromToday(end),
      state: 'Deployed',
    });
  await line(NAMED, 'Named User', 3, 200);
  await line(SHARED, 'Shared Web', 5, 200);
  await line(ENDED, 'Named User', 3, -1);
  return customerNumber;
}

const test = apiTest.extend('world', { scope: 'file' }, async ({ database: { db } }) => {
  await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'gs_fluids' });
  await buildProduct(db, SHARED, { name: 'Mechanical - Shared Web', featureName: 'gs_mech' });
  await buildProduct(db, ENDED, { name: 'Optics - Named User', featureName: 'gs_optics' });
  return {
    account: () => account(db),
    apply: (customerNumber: string) => db.transaction((tx) => applyGroupSeats(tx, customerNumber)),
    seats: (customerNumber: string, partNumber = NAMED) => seatsOf(db, customerNumber, partNumber),
  };
});

const sorted = <T extends { userId: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.userId.localeCompare(b.userId));

describe('applyGroupSeats', () => {
  test('a member of a group given a named pool gets a seat; a new member too; nothing changes a second time', async ({
    database: { db },
    world: { account, apply, seats },
  }) => {
    const cn = await account();
    const [a, b, c] = [
      await addWebUser(db, cn, 'a@x.example'),
      await addWebUser(db, cn, 'b@x.example', 'invited'),
      await addWebUser(db, cn, 'c@x.example'),
    ];
    const group = await addWebGroup(db, cn, 'Engineers', [a, b]);
    await addGroupPool(db, cn, NAMED, group);
    const first = await apply(cn);
    expect(sorted(first.added)).toEqual(
      sorted([
        { partNumber: NAMED, userId: a },
        { partNumber: NAMED, userId: b },
      ]),
    );
    expect(first.removed).toEqual([]);
    await addMember(db, group, c);
    expect(await apply(cn)).toEqual({ added: [{ partNumber: NAMED, userId: c }], removed: [] });
    expect(await seats(cn)).toEqual(sorted([a, b, c].map((userId) => ({ userId, groupId: group }))));
    expect(await apply(cn)).toEqual({ added: [], removed: [] });
  });

  test('a member who leaves loses the group seat; a direct seat stays; one still in another group keeps it', async ({
    database: { db },
    world: { account, apply, seats },
  }) => {
    const cn = await account();
    const [a, b, d] = [
      await addWebUser(db, cn, 'a@x.example'),
      await addWebUser(db, cn, 'b@x.example'),
      await addWebUser(db, cn, 'd@x.example'),
    ];
    const first = await addWebGroup(db, cn, 'First', [a, b, d]);
    const second = await addWebGroup(db, cn, 'Second', [b]);
    await addGroupPool(db, cn, NAMED, first);
    await addGroupPool(db, cn, NAMED, second);
    await addDirectSeat(db, cn, NAMED, d);
    await apply(cn);
    for (const userId of [a, b, d]) await removeMember(db, first, userId);
    expect(await apply(cn)).toEqual({ added: [], removed: [{ partNumber: NAMED, userId: a }] });
    // b is still reached through Second (the seat now names it); d's seat was assigned directly.
    expect(await seats(cn)).toEqual(
      sorted([
        { userId: b, groupId: second },
        { userId: d, groupId: null },
      ]),
    );
  });

  test('suspended and removed people hold no seat, direct or from a group; invited ones do', async ({
    database: { db },
    world: { account, apply, seats },
  }) => {
    const cn = await account();
    const [a, b, c] = [
      await addWebUser(db, cn, 'a@x.example'),
      await addWebUser(db, cn, 'b@x.example'),
      await addWebUser(db, cn, 'c@x.example', 'suspended'),
    ];
    const group = await addWebGroup(db, cn, 'Engineers', [a, c]);
    await addGroupPool(db, cn, NAMED, group);
    await addDirectSeat(db, cn, NAMED, b);
    expect(await apply(cn)).toEqual({ added: [{ partNumber: NAMED, userId: a }], removed: [] });
    await setWebUserState(db, a, 'suspended');
    await setWebUserState(db, b, 'removed');
    const changes = await apply(cn);
    expect(sorted(changes.removed)).toEqual(
      sorted([
        { partNumber: NAMED, userId: a },
        { partNumber: NAMED, userId: b },
      ]),
    );
    expect(changes.added).toEqual([]);
    expect(await seats(cn)).toEqual([]);
    await setWebUserState(db, c, 'invited');
    expect(await apply(cn)).toEqual({ added: [{ partNumber: NAMED, userId: c }], removed: [] });
  });

  test('refuses with the pool and the numbers when the members would hold more seats than it has, and writes nothing', async ({
    database: { db },
    world: { account, apply, seats },
  }) => {
    const cn = await account();
    const people = [];
    for (const name of ['a', 'b', 'c', 'd']) people.push(await addWebUser(db, cn, `${name}@x.example`));
    const group = await addWebGroup(db, cn, 'Everyone', people.slice(0, 3));
    await addGroupPool(db, cn, NAMED, group);
    await apply(cn);
    await addMember(db, group, people[3]);
    const refusal = await apply(cn).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      code: 'CONFLICT',
      message: 'Fluids Premium - Named User has 3 seats; this change would assign 4.',
    });
    expect(await seats(cn)).toHaveLength(3);
  });

  test('a shared pool or a product whose lines ended gives no named seats', async ({
    database: { db },
    world: { account, apply, seats },
  }) => {
    const cn = await account();
    const a = await addWebUser(db, cn, 'a@x.example');
    const group = await addWebGroup(db, cn, 'Engineers', [a]);
    await addGroupPool(db, cn, SHARED, group);
    await addGroupPool(db, cn, ENDED, group);
    expect(await apply(cn)).toEqual({ added: [], removed: [] });
    expect(await seats(cn, SHARED)).toEqual([]);
    expect(await seats(cn, ENDED)).toEqual([]);
  });
});
