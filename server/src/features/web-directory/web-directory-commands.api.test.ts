import { webDirectoryApi } from '@lp/contract/web-directory/api';
import { webDirectoryMessages } from '@lp/domain/web-directory';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';
import type { Db } from '../../db/database.ts';
import { webGroupPools, webLeases, webNamedSeats } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { AuditActor } from '../audit/service.ts';
import {
  changeWebGroupMembersIn,
  createWebGroup,
  createWebUser,
  type DirectoryActor,
  deleteWebGroup,
  removeWebUser,
  renameWebGroup,
  replaceWebUser,
  setWebUserState,
  webGroupByExternalId,
  webGroupMemberIds,
  webUserByEmail,
  webUserByExternalId,
  webUserById,
} from './service.ts';

/*
 * The directory's commands as the SCIM endpoint calls them (decision 071): no session, an explicit actor and the
 * source 'scim'. The portal's refusals of what the identity provider manages are checked through the API.
 */

const CN = acme.customerNumber;
const NAMED = 'WDC-NU';
const actor: AuditActor = {
  kind: 'api-token',
  id: null,
  name: 'SCIM token',
  requestId: null,
  clientIp: null,
};
const scim: DirectoryActor = { actor, source: 'scim' };

const test = apiTest.extend('db', { scope: 'file' }, async ({ database }) => database.db);

/** The error a command throws: its code and message. */
async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('the command was not refused');
}

const seatsOf = async (db: Db, userId: string) =>
  (await db.select().from(webNamedSeats).where(eq(webNamedSeats.userId, userId))).map((r) => r.partNumber);

test.beforeAll(async ({ db, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Optics - Named User', featureName: 'wdc_optics' });
  await buildEntitlement(db, CN, {
    kind: 'SSL',
    partNumber: NAMED,
    licenseModel: 'Named User',
    quantity: 5,
    startDate: dayFromToday(-10),
    endDate: dayFromToday(300),
  });
});

describe('people provisioned by SCIM', () => {
  test('creates a person, finds them by id, e-mail and externalId, and refuses a second with the e-mail', async ({
    db,
  }) => {
    const made = await createWebUser(db, CN, scim, {
      email: 'Kim@Acme.example',
      name: 'Kim',
      state: 'active',
      externalId: 'entra-kim',
    });
    expect(made).toMatchObject({ email: 'kim@acme.example', source: 'scim', state: 'active', version: 1 });
    expect((await webUserById(db, CN, made.id))?.email).toBe('kim@acme.example');
    expect((await webUserByEmail(db, CN, 'KIM@acme.example'))?.id).toBe(made.id);
    expect((await webUserByExternalId(db, CN, 'entra-kim'))?.id).toBe(made.id);
    expect(await webUserById(db, '4100002', made.id)).toBeUndefined();
    expect(await refusal(createWebUser(db, CN, scim, { email: 'kim@acme.example' }))).toEqual({
      code: 'CONFLICT',
      message: webDirectoryMessages.emailTaken('kim@acme.example'),
    });
    expect(await refusal(createWebUser(db, CN, scim, { email: 'not mail' }))).toEqual({
      code: 'BAD_REQUEST',
      message: '"not mail" is not an e-mail address.',
    });
  });

  test('replaces, suspends (ending sessions) and deletes a person; a deleted person comes back on create', async ({
    db,
    database,
  }) => {
    const log = auditLog(database.db);
    const made = await createWebUser(db, CN, scim, { email: 'lee@acme.example', externalId: 'ext-lee' });
    const replaced = await replaceWebUser(db, CN, scim, made.id, {
      email: 'lee.new@acme.example',
      name: 'Lee',
      state: 'active',
    });
    expect(replaced).toMatchObject({
      email: 'lee.new@acme.example',
      name: 'Lee',
      scimExternalId: null,
      version: 2,
    });
    await db.insert(webLeases).values({
      customerNumber: CN,
      partNumber: NAMED,
      userId: made.id,
      email: 'lee.new@acme.example',
      product: 'Optics',
      outcome: 'open',
    });
    const mark = await log.mark();
    await setWebUserState(db, CN, scim, made.id, 'suspended');
    const [entry] = await log.since(mark);
    expect(entry).toMatchObject({
      action: 'web-directory.user.updated',
      actorName: 'SCIM token',
      before: { state: 'active' },
      after: { state: 'suspended', sessionsEnded: 1 },
    });
    await removeWebUser(db, CN, scim, made.id);
    expect((await webUserById(db, CN, made.id))?.state).toBe('removed');
    expect(await refusal(setWebUserState(db, CN, scim, made.id, 'active'))).toEqual({
      code: 'NOT_FOUND',
      message: webDirectoryMessages.unknownUser,
    });
    const back = await createWebUser(db, CN, scim, { email: 'lee.new@acme.example', state: 'active' });
    expect(back).toMatchObject({ id: made.id, state: 'active' });
  });
});

describe('groups provisioned by SCIM', () => {
  test('creates a group with members, adds and removes members with seats following, renames and deletes it', async ({
    db,
  }) => {
    const ann = await createWebUser(db, CN, scim, { email: 'g-ann@acme.example', state: 'active' });
    const bob = await createWebUser(db, CN, scim, { email: 'g-bob@acme.example', state: 'active' });
    const group = await createWebGroup(db, CN, scim, {
      name: 'Optics team',
      externalId: 'grp-1',
      memberIds: [ann.id],
    });
    expect(group.source).toBe('scim');
    expect((await webGroupByExternalId(db, CN, 'grp-1'))?.id).toBe(group.id);
    await db.insert(webGroupPools).values({ customerNumber: CN, partNumber: NAMED, groupId: group.id });
    const members = (change: { add?: string[]; remove?: string[] }) =>
      db.transaction((tx) =>
        changeWebGroupMembersIn(tx, CN, scim, group.id, { add: [], remove: [], ...change }),
      );
    const added = await members({ add: [bob.id, ann.id] });
    expect(added).toEqual({ added: 1, removed: 0, seatsAdded: 2, seatsRemoved: 0 });
    expect(await seatsOf(db, bob.id)).toEqual([NAMED]);
    const removed = await members({ remove: [ann.id] });
    expect(removed).toMatchObject({ removed: 1, seatsRemoved: 1 });
    expect(await webGroupMemberIds(db, CN, group.id)).toEqual([bob.id]);
    expect((await renameWebGroup(db, CN, scim, group.id, 'Optics')).name).toBe('Optics');
    await deleteWebGroup(db, CN, scim, group.id);
    expect(await seatsOf(db, bob.id)).toEqual([]);
  });

  test("the portal may read a SCIM group but not change it; SCIM may change the portal's groups", async ({
    db,
    api,
    cast: { boss },
  }) => {
    const group = await createWebGroup(db, CN, scim, { name: 'From the IdP' });
    const listed = (await api.ok(boss, webDirectoryApi.groups, { customerNumber: CN })).data;
    expect(listed.find((g) => g.id === group.id)).toMatchObject({ name: 'From the IdP', source: 'scim' });
    const refused = await api.refused(
      boss,
      webDirectoryApi.renameGroup,
      { customerNumber: CN, groupId: group.id, name: 'Mine' },
      409,
    );
    expect(refused.err).toBe(webDirectoryMessages.scimManaged);
    const manual = await api.ok(boss, webDirectoryApi.createGroup, {
      customerNumber: CN,
      name: 'Portal made',
    });
    expect((await renameWebGroup(db, CN, scim, manual.data.id, 'Renamed by IdP')).name).toBe(
      'Renamed by IdP',
    );
  });
});
