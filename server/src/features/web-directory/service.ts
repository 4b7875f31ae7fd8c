import type { InviteResult, WebGroup, WebUser } from '@lp/contract/web-directory/schemas';
import { normaliseEmail } from '@lp/domain/contacts';
import {
  collectInvites,
  groupDeletionText,
  type InviteRow,
  inviteText,
  leavesAdministrators,
  webDirectoryMessages as m,
  membersText,
  removalText,
  WEB_USERS_LIST_MAX,
  type WebUserRole,
  type WebUserSource,
} from '@lp/domain/web-directory';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditActor, type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import { applyGroupSeats } from '../web-seats/service.ts';
import { endUserLeases } from '../web-sessions/service.ts';
import { csvCells } from './csv.ts';
import {
  addMembers,
  deleteGroup,
  findGroups,
  findUsers,
  groupPoolsOf,
  groupTermsOf,
  insertGroup,
  insertUsers,
  lockActiveAdministrators,
  membershipsOf,
  namedSeatsOf,
  openSessionsOf,
  removeMembers,
  removeMembershipsOf,
  touchGroups,
  updateGroup,
  updateUsers,
  usersOf,
  type WebGroupRow,
  type WebUserRow,
} from './repository.ts';

/*
 * The web directory's commands (decision 071). Each is one transaction (the `...In` variants run in the caller's),
 * audited in the account's chain, and takes who makes the change and from where: the portal (`manual`, `csv`) or
 * the identity provider (`scim`), so the SCIM endpoint writes through the same rules as the pages.
 */

/** Who makes a directory change: the audit's actor and the change's source. */
export interface DirectoryActor {
  actor: AuditActor;
  source: WebUserSource;
}

export type { WebGroupRow, WebUserRow };

const conflict = (message: string) => new AppError('CONFLICT', message);

/** Thrown to roll a previewed change back; carries what the change answered. */
class PreviewRollback<T> extends Error {
  readonly result: T;
  constructor(result: T) {
    super('preview');
    this.result = result;
  }
}

/** Runs `work` in one transaction; a preview runs it whole (the seat rules included) and then rolls it back. */
async function inTransaction<T>(db: Db, preview: boolean, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const result = await work(tx);
      if (preview) throw new PreviewRollback(result);
      return result;
    });
  } catch (e) {
    if (e instanceof PreviewRollback) return e.result as T;
    throw e;
  }
}

/** Named seats follow the directory: the web-seats rule run after a change, answered for the audit entry. */
async function applySeats(tx: Db, customerNumber: string) {
  const { added, removed } = await applyGroupSeats(tx, customerNumber);
  return { seatsAdded: added, seatsRemoved: removed };
}

const directoryObject = (customerNumber: string) => ({ type: 'web-directory', id: customerNumber });
const userObject = (id: string) => ({ type: 'web-user', id });
const groupObject = (id: string) => ({ type: 'web-group', id });

// ---------------------------------------------------------------------------------------------------------------
// Reads

/** Rows by a key (Map.groupBy is newer than the project's TypeScript library). */
function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}

/** One person of the account by id (removed people too: the caller decides what a removed person is to it). */
export async function webUserById(
  db: Db,
  customerNumber: string,
  id: string,
): Promise<WebUserRow | undefined> {
  const [row] = await findUsers(db, customerNumber, { ids: [id] });
  return row;
}

export async function webUserByEmail(
  db: Db,
  customerNumber: string,
  email: string,
): Promise<WebUserRow | undefined> {
  const [row] = await findUsers(db, customerNumber, { emails: [normaliseEmail(email)] });
  return row;
}

export async function webUserByExternalId(
  db: Db,
  customerNumber: string,
  externalId: string,
): Promise<WebUserRow | undefined> {
  const [row] = await findUsers(db, customerNumber, { externalId });
  return row;
}

export async function webGroupById(
  db: Db,
  customerNumber: string,
  id: string,
): Promise<WebGroupRow | undefined> {
  const [row] = await findGroups(db, customerNumber, { ids: [id] });
  return row;
}

export async function webGroupByExternalId(
  db: Db,
  customerNumber: string,
  externalId: string,
): Promise<WebGroupRow | undefined> {
  const [row] = await findGroups(db, customerNumber, { externalId });
  return row;
}

/** The member ids of one group of the account. */
export async function webGroupMemberIds(db: Db, customerNumber: string, groupId: string): Promise<string[]> {
  return (await membershipsOf(db, customerNumber, [groupId])).map((r) => r.userId);
}

/** The directory as the pages show it (or the people of `ids`): people with their groups, seats and open sessions. */
export async function webUsersOf(
  db: Db,
  customerNumber: string,
  includeRemoved = false,
  ids?: readonly string[],
): Promise<WebUser[]> {
  // One after another: `db` may be a caller's transaction (SCIM, the seed), whose one connection runs one query at a
  // time (node-postgres deprecates queueing them).
  const people = await usersOf(db, customerNumber, includeRemoved, WEB_USERS_LIST_MAX, ids);
  const memberships = await membershipsOf(db, customerNumber, undefined, ids);
  const seats = await namedSeatsOf(db, customerNumber, ids);
  const sessions = await openSessionsOf(db, customerNumber, ids);
  const groupsOf = groupBy(memberships, (r) => r.userId);
  const seatsOf = groupBy(seats, (r) => r.userId);
  const open = new Map(sessions.map((s) => [s.userId, s.open]));
  return people.map((p) => ({
    id: p.id,
    email: p.email,
    name: p.name,
    source: p.source as WebUser['source'],
    state: p.state as WebUser['state'],
    role: p.role as WebUser['role'],
    groups: (groupsOf.get(p.id) ?? []).map((g) => ({ id: g.groupId, name: g.groupName })),
    seats: (seatsOf.get(p.id) ?? []).map((s) => ({
      partNumber: s.partNumber,
      groupId: s.groupId,
      groupName: s.groupName,
    })),
    lastSeenAt: p.lastSeenAt ? p.lastSeenAt.toISOString() : null,
    openSessions: open.get(p.id) ?? 0,
  }));
}

/** The groups as the pages show them: members, named pools, terms on shared pools. */
export async function webGroupsOf(
  db: Db,
  customerNumber: string,
  ids?: readonly string[],
): Promise<WebGroup[]> {
  // One after another, as in webUsersOf: `db` may be a transaction.
  const groups = await findGroups(db, customerNumber, ids ? { ids } : {});
  const memberships = await membershipsOf(db, customerNumber, ids);
  const pools = await groupPoolsOf(db, customerNumber);
  const terms = await groupTermsOf(db, customerNumber);
  const membersOf = groupBy(memberships, (r) => r.groupId);
  const poolsOf = groupBy(pools, (r) => r.groupId);
  const termsOf = groupBy(terms, (r) => r.groupId);
  return groups.map((g) => {
    const memberIds = (membersOf.get(g.id) ?? []).map((r) => r.userId);
    return {
      id: g.id,
      name: g.name,
      source: g.source as WebGroup['source'],
      memberIds,
      members: memberIds.length,
      namedPools: (poolsOf.get(g.id) ?? []).map((p) => p.partNumber),
      sharedTerms: (termsOf.get(g.id) ?? []).map(({ partNumber, guaranteed, cap }) => ({
        partNumber,
        guaranteed,
        cap,
      })),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// People

/**
 * Refuses (409) when `leaving` are all the directory's active administrators. `admins` were locked by
 * `lockActiveAdministrators` before the people changed were locked, so two changes of administrators queue in one
 * lock order and the second counts what the first left.
 */
function refuseLastAdministrator(admins: readonly string[], leaving: readonly WebUserRow[]) {
  if (!leaving.length) return;
  const gone = new Set(leaving.map((p) => p.id));
  if (admins.every((id) => gone.has(id))) throw conflict(m.lastAdmin(leaving.at(-1)!.email));
}

/**
 * Invites people (already collected by `collectInvites`): new e-mails are added as invited, removed people come
 * back as invited, the others are unchanged; the groups named by a row gain the person (groups that do not exist
 * are made, as manual groups). Records one entry when anything changed.
 */
export async function inviteWebUsersIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  invites: readonly InviteRow[],
): Promise<Omit<InviteResult, 'preview' | 'text'>> {
  const emails = invites.map((i) => i.email);
  // The lock order of every command that locks people: the active administrators first (an invitation may list
  // one), then the people; otherwise an invitation and a SCIM write of the same people could deadlock.
  await lockActiveAdministrators(tx, customerNumber);
  const existing = new Map(
    (await findUsers(tx, customerNumber, { emails }, true)).map((p) => [p.email, p] as const),
  );
  const removed = invites.filter((i) => existing.get(i.email)?.state === 'removed');
  for (const invite of removed) {
    const person = existing.get(invite.email)!;
    const [back] = await updateUsers(tx, [person.id], {
      state: 'invited',
      source: by.source,
      role: 'member',
      name: invite.name || person.name,
    });
    existing.set(invite.email, back);
  }
  const inserted = await insertUsers(
    tx,
    customerNumber,
    invites
      .filter((i) => !existing.has(i.email))
      .map((i) => ({ email: i.email, name: i.name, source: by.source, state: 'invited' })),
  );
  for (const person of inserted) existing.set(person.email, person);
  const insertedEmails = new Set(inserted.map((p) => p.email));
  const restoredEmails = new Set(removed.map((i) => i.email));
  // A concurrent invitation may have added an e-mail between the read and the insert: that person is unchanged.
  const missing = invites.filter((i) => !existing.has(i.email)).map((i) => i.email);
  for (const person of await findUsers(tx, customerNumber, { emails: missing }))
    existing.set(person.email, person);

  const { groupsCreated, pairs } = await groupsOfInvites(tx, customerNumber, by, invites, existing);
  const membershipsAdded = await addMembers(tx, pairs);
  const seats = membershipsAdded
    ? await applySeats(tx, customerNumber)
    : { seatsAdded: [], seatsRemoved: [] };
  if (membershipsAdded) await touchGroups(tx, [...new Set(pairs.map((p) => p.groupId))]);

  const result = {
    invited: emails.filter((e) => insertedEmails.has(e)),
    restored: emails.filter((e) => restoredEmails.has(e)),
    unchanged: emails.filter((e) => !insertedEmails.has(e) && !restoredEmails.has(e)),
    groupsCreated,
    membershipsAdded,
  };
  if (result.invited.length || result.restored.length || membershipsAdded || groupsCreated.length)
    await recordAudit(tx, by.actor, [
      {
        customerNumber,
        action: 'web-directory.users.invited',
        object: directoryObject(customerNumber),
        after: {
          source: by.source,
          invited: result.invited,
          restored: result.restored,
          groupsCreated,
          membershipsAdded,
          ...seats,
        },
      },
    ]);
  return result;
}

/** The groups an invitation's rows name (made when missing) and the memberships they ask for. */
async function groupsOfInvites(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  invites: readonly InviteRow[],
  people: ReadonlyMap<string, WebUserRow>,
) {
  const names = [...new Set(invites.flatMap((i) => i.groups))];
  const groups = new Map(
    (await findGroups(tx, customerNumber, { names }, true)).map((g) => [g.name, g] as const),
  );
  const scim = [...groups.values()].find((g) => g.source === 'scim' && by.source !== 'scim');
  if (scim) throw conflict(`${scim.name}: ${m.scimManaged}`);
  const groupsCreated: string[] = [];
  for (const name of names.filter((n) => !groups.has(n))) {
    const made = await insertGroup(tx, customerNumber, { name, source: 'manual' });
    if (!made) throw conflict(m.groupNameTaken(name));
    groups.set(name, made);
    groupsCreated.push(name);
  }
  const pairs = invites.flatMap((i) =>
    i.groups.map((g) => ({ groupId: groups.get(g)!.id, userId: people.get(i.email)!.id })),
  );
  return { groupsCreated, pairs };
}

/** The invitation of the people page and its CSV import, previewed or made. */
async function invite(
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  invites: readonly InviteRow[],
  preview: boolean,
): Promise<InviteResult> {
  const result = await inTransaction(db, preview, (tx) => inviteWebUsersIn(tx, customerNumber, by, invites));
  return {
    preview,
    text: inviteText({
      invited: result.invited.length,
      restored: result.restored.length,
      unchanged: result.unchanged.length,
      groupsCreated: result.groupsCreated.length,
      membershipsAdded: result.membershipsAdded,
    }),
    ...result,
  };
}

/** Problems of an invitation, one sentence: the first few, with how many more. */
function refuseProblems(problems: readonly string[]) {
  if (!problems.length) return;
  const shown = problems.slice(0, 10).join(' ');
  throw badRequest(problems.length > 10 ? `${shown} (and ${problems.length - 10} more problems)` : shown);
}

/** What SCIM provisions for one person (and a replace sets whole). */
export interface WebUserInput {
  email: string;
  name?: string;
  state?: 'invited' | 'active' | 'suspended';
  role?: WebUserRole;
  externalId?: string | null;
}

/**
 * Adds one person (SCIM's create): refused (409) when the e-mail is in the directory already; a removed person
 * with the e-mail comes back with the given fields.
 */
export async function createWebUserIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  input: WebUserInput,
): Promise<WebUserRow> {
  const email = normaliseEmail(input.email);
  const [invalid] = collectInvites([{ email }], (_, text) => text).problems;
  if (invalid) throw badRequest(invalid);
  const fields = {
    email,
    name: (input.name ?? '').trim(),
    source: by.source,
    state: input.state ?? 'invited',
    role: input.role ?? 'member',
    scimExternalId: input.externalId ?? null,
  };
  const [person] = await findUsers(tx, customerNumber, { emails: [email] }, true);
  if (person && person.state !== 'removed') throw conflict(m.emailTaken(email));
  const [made] = person
    ? await updateUsers(tx, [person.id], fields)
    : await insertUsers(tx, customerNumber, [fields]);
  if (!made) throw conflict(m.emailTaken(email));
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.user.created',
      object: userObject(made.id),
      after: { email, name: made.name, state: made.state, role: made.role, source: by.source },
    },
  ]);
  return made;
}

export const createWebUser = (db: Db, customerNumber: string, by: DirectoryActor, input: WebUserInput) =>
  db.transaction((tx) => createWebUserIn(tx, customerNumber, by, input));

/** The fields of a person that may change; those not given stay. */
export interface WebUserPatch {
  email?: string;
  name?: string;
  role?: WebUserRole;
  state?: 'invited' | 'active' | 'suspended';
  externalId?: string | null;
}

/**
 * Changes one person. Suspending ends their open sessions and frees their named seats (activating gives back the
 * seats of their groups); the directory's last active administrator cannot be suspended or demoted (409). A
 * change that changes nothing records nothing. A removed person is unknown here (404).
 */
export async function updateWebUserIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  userId: string,
  patch: WebUserPatch,
): Promise<WebUserRow> {
  // A role or state change may take an administrator away: their rows are locked first (see refuseLastAdministrator).
  const admins =
    patch.role !== undefined || patch.state !== undefined
      ? await lockActiveAdministrators(tx, customerNumber)
      : [];
  const [person] = await findUsers(tx, customerNumber, { ids: [userId] }, true);
  if (!person || person.state === 'removed') throw notFound(m.unknownUser);
  const next = {
    email: patch.email === undefined ? person.email : normaliseEmail(patch.email),
    name: patch.name === undefined ? person.name : patch.name.trim(),
    role: patch.role ?? person.role,
    state: patch.state ?? person.state,
    scimExternalId: patch.externalId === undefined ? person.scimExternalId : patch.externalId,
  };
  const before = {
    email: person.email,
    name: person.name,
    role: person.role,
    state: person.state,
    scimExternalId: person.scimExternalId,
  };
  if (JSON.stringify(before) === JSON.stringify(next)) return person;
  if (next.email !== person.email) {
    const [invalid] = collectInvites([{ email: next.email }], (_, text) => text).problems;
    if (invalid) throw badRequest(invalid);
    const [taken] = await findUsers(tx, customerNumber, { emails: [next.email] });
    if (taken) throw conflict(m.emailTaken(next.email));
  }
  if (leavesAdministrators(person, next)) refuseLastAdministrator(admins, [person]);
  const [updated] = await updateUsers(tx, [person.id], next);
  const sessionsEnded =
    next.state === 'suspended' && person.state !== 'suspended'
      ? await endUserLeases(tx, customerNumber, [person.id], 'user-removed')
      : 0;
  const seats = next.state !== person.state ? await applySeats(tx, customerNumber) : undefined;
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.user.updated',
      object: userObject(person.id),
      before,
      after: { ...next, ...(sessionsEnded && { sessionsEnded }), ...seats },
    },
  ]);
  return updated;
}

export const updateWebUser = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  userId: string,
  patch: WebUserPatch,
) => db.transaction((tx) => updateWebUserIn(tx, customerNumber, by, userId, patch));

/** SCIM's PUT: the person's fields as given (a name or role not given keeps its value). */
export const replaceWebUser = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  userId: string,
  input: WebUserInput,
) => updateWebUser(db, customerNumber, by, userId, { ...input, externalId: input.externalId ?? null });

/** SCIM's `active`: activates or suspends one person. */
export const setWebUserState = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  userId: string,
  state: 'active' | 'suspended',
) => updateWebUser(db, customerNumber, by, userId, { state });

export interface RemovalResult {
  users: number;
  seatsFreed: number;
  sessionsEnded: number;
}

/**
 * Removes people: their open sessions end, they leave every group and their named seats go; the rows stay, marked
 * removed. Refused (409) when it would take the directory's last active administrator; people already removed are
 * left as they are (nothing is recorded for them).
 */
export async function removeWebUsersIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  userIds: readonly string[],
): Promise<RemovalResult> {
  const ids = [...new Set(userIds)];
  const admins = await lockActiveAdministrators(tx, customerNumber);
  const people = await findUsers(tx, customerNumber, { ids }, true);
  if (people.length !== ids.length) throw notFound(ids.length === 1 ? m.unknownUser : m.unknownUsers);
  const leaving = people.filter((p) => p.state !== 'removed');
  if (!leaving.length) return { users: 0, seatsFreed: 0, sessionsEnded: 0 };
  refuseLastAdministrator(
    admins,
    leaving.filter((p) => p.role === 'administrator' && p.state === 'active'),
  );
  const leavingIds = leaving.map((p) => p.id);
  const groups = [
    ...new Set(
      (await membershipsOf(tx, customerNumber))
        .filter((r) => leavingIds.includes(r.userId))
        .map((r) => r.groupId),
    ),
  ];
  await updateUsers(tx, leavingIds, { state: 'removed' });
  await removeMembershipsOf(tx, leavingIds);
  await touchGroups(tx, groups);
  const sessionsEnded = await endUserLeases(tx, customerNumber, leavingIds, 'user-removed');
  const seats = await applySeats(tx, customerNumber);
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.users.removed',
      object: directoryObject(customerNumber),
      after: { users: leaving.map((p) => p.email), sessionsEnded, ...seats },
    },
  ]);
  return { users: leaving.length, seatsFreed: seats.seatsRemoved.length, sessionsEnded };
}

export const removeWebUsers = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  userIds: readonly string[],
) => db.transaction((tx) => removeWebUsersIn(tx, customerNumber, by, userIds));

/** SCIM's DELETE of one person. */
export const removeWebUser = (db: Db, customerNumber: string, by: DirectoryActor, userId: string) =>
  removeWebUsers(db, customerNumber, by, [userId]);

// ---------------------------------------------------------------------------------------------------------------
// Groups

export interface GroupChange {
  added: number;
  removed: number;
  seatsAdded: number;
  seatsRemoved: number;
}

/** One group of the account, locked; refused for the portal when the identity provider manages it. */
async function lockGroupFor(tx: Db, customerNumber: string, by: DirectoryActor, groupId: string) {
  const [group] = await findGroups(tx, customerNumber, { ids: [groupId] }, true);
  if (!group) throw notFound(m.unknownGroup);
  if (group.source === 'scim' && by.source !== 'scim') throw conflict(m.scimManaged);
  return group;
}

/**
 * Locks a person for a write whose caller checks their version first (SCIM's If-Match), in the order the user
 * commands lock: the directory's active administrators, then the person. Answers the version, or null when the
 * person is not in the directory (or removed).
 */
export async function lockWebUserVersion(tx: Db, customerNumber: string, userId: string) {
  await lockActiveAdministrators(tx, customerNumber);
  const [person] = await findUsers(tx, customerNumber, { ids: [userId] }, true);
  return person && person.state !== 'removed' ? person.version : null;
}

/** Locks a group for a write whose caller checks its version first (SCIM's If-Match); null when unknown. */
export async function lockWebGroupVersion(tx: Db, customerNumber: string, groupId: string) {
  const [group] = await findGroups(tx, customerNumber, { ids: [groupId] }, true);
  return group ? group.version : null;
}

/** Makes a group (of the caller's source: SCIM's groups are managed by the identity provider), optionally with members. */
export async function createWebGroupIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  input: { name: string; externalId?: string | null; memberIds?: readonly string[] },
): Promise<WebGroupRow> {
  const name = input.name.trim();
  const group = await insertGroup(tx, customerNumber, {
    name,
    source: by.source === 'scim' ? 'scim' : 'manual',
    scimExternalId: input.externalId ?? null,
  });
  if (!group) throw conflict(m.groupNameTaken(name));
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.group.created',
      object: groupObject(group.id),
      after: { name, source: group.source },
    },
  ]);
  if (input.memberIds?.length) await changeMembers(tx, customerNumber, by, group, { add: input.memberIds });
  return group;
}

export const createWebGroup = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  input: { name: string; externalId?: string | null; memberIds?: readonly string[] },
) => db.transaction((tx) => createWebGroupIn(tx, customerNumber, by, input));

/** Renames a group (409 when another group has the name); the same name changes nothing. */
export async function renameWebGroupIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
  newName: string,
  externalId?: string | null,
): Promise<WebGroupRow> {
  const group = await lockGroupFor(tx, customerNumber, by, groupId);
  const name = newName.trim();
  const ext = externalId === undefined ? group.scimExternalId : externalId;
  if (name === group.name && ext === group.scimExternalId) return group;
  if (name !== group.name) {
    const [taken] = await findGroups(tx, customerNumber, { names: [name] });
    if (taken) throw conflict(m.groupNameTaken(name));
  }
  const renamed = await updateGroup(tx, group.id, { name, scimExternalId: ext });
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.group.renamed',
      object: groupObject(group.id),
      before: { name: group.name, scimExternalId: group.scimExternalId },
      after: { name, scimExternalId: ext },
    },
  ]);
  return renamed;
}

export const renameWebGroup = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
  name: string,
  externalId?: string | null,
) => db.transaction((tx) => renameWebGroupIn(tx, customerNumber, by, groupId, name, externalId));

/**
 * Adds and removes members of a locked group; the people must be in the directory and not removed (404). Seats
 * follow (409 when a pool would be over-assigned); one entry names who came and went and the seats.
 */
async function changeMembers(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  group: WebGroupRow,
  change: { add?: readonly string[]; remove?: readonly string[]; replace?: readonly string[] },
): Promise<GroupChange> {
  const current = new Set(await webGroupMemberIds(tx, customerNumber, group.id));
  let add = [...new Set(change.add ?? [])].filter((id) => !current.has(id));
  let remove = [...new Set(change.remove ?? [])].filter((id) => current.has(id));
  if (change.replace) {
    const wanted = new Set(change.replace);
    add = [...wanted].filter((id) => !current.has(id));
    remove = [...current].filter((id) => !wanted.has(id));
  }
  const people = await findUsers(tx, customerNumber, { ids: add });
  if (people.length !== add.length || people.some((p) => p.state === 'removed'))
    throw notFound(add.length === 1 ? m.unknownUser : m.unknownUsers);
  if (!add.length && !remove.length) return { added: 0, removed: 0, seatsAdded: 0, seatsRemoved: 0 };
  await addMembers(
    tx,
    add.map((userId) => ({ groupId: group.id, userId })),
  );
  await removeMembers(tx, group.id, remove);
  await touchGroups(tx, [group.id]);
  const seats = await applySeats(tx, customerNumber);
  const emailOf = new Map(
    (await findUsers(tx, customerNumber, { ids: [...add, ...remove] })).map((p) => [p.id, p.email] as const),
  );
  await recordAudit(tx, by.actor, [
    {
      customerNumber,
      action: 'web-directory.group.members.changed',
      object: groupObject(group.id),
      after: {
        group: group.name,
        added: add.map((id) => emailOf.get(id)),
        removed: remove.map((id) => emailOf.get(id)),
        ...seats,
      },
    },
  ]);
  return {
    added: add.length,
    removed: remove.length,
    seatsAdded: seats.seatsAdded.length,
    seatsRemoved: seats.seatsRemoved.length,
  };
}

/** Makes a group's members exactly `userIds`. */
export async function setWebGroupMembersIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
  userIds: readonly string[],
): Promise<GroupChange> {
  const group = await lockGroupFor(tx, customerNumber, by, groupId);
  return changeMembers(tx, customerNumber, by, group, { replace: userIds });
}

export const setWebGroupMembers = (
  db: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
  userIds: readonly string[],
) => db.transaction((tx) => setWebGroupMembersIn(tx, customerNumber, by, groupId, userIds));

/** SCIM's PATCH add and remove of members: people already members, or not members, are left as they are. */
export async function changeWebGroupMembersIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
  change: { add: readonly string[]; remove: readonly string[] },
): Promise<GroupChange> {
  const group = await lockGroupFor(tx, customerNumber, by, groupId);
  return changeMembers(tx, customerNumber, by, group, change);
}

/** Deletes a group: its members lose the seats they held through it (its pools and terms go with it). */
export async function deleteWebGroupIn(
  tx: Db,
  customerNumber: string,
  by: DirectoryActor,
  groupId: string,
): Promise<GroupChange & { name: string }> {
  const group = await lockGroupFor(tx, customerNumber, by, groupId);
  const members = await webGroupMemberIds(tx, customerNumber, group.id);
  // Members leave first, so the seats given through the group go (a deleted group's seats would stay as direct ones).
  await removeMembers(tx, group.id, members);
  const seats = await applySeats(tx, customerNumber);
  await deleteGroup(tx, group.id);
  const entry: AuditChange = {
    customerNumber,
    action: 'web-directory.group.deleted',
    object: groupObject(group.id),
    before: { name: group.name, source: group.source, members: members.length },
    after: seats,
  };
  await recordAudit(tx, by.actor, [entry]);
  return {
    name: group.name,
    added: 0,
    removed: members.length,
    seatsAdded: seats.seatsAdded.length,
    seatsRemoved: seats.seatsRemoved.length,
  };
}

export const deleteWebGroup = (db: Db, customerNumber: string, by: DirectoryActor, groupId: string) =>
  db.transaction((tx) => deleteWebGroupIn(tx, customerNumber, by, groupId));

// ---------------------------------------------------------------------------------------------------------------
// The portal's calls: the account gate, then the commands with the signed-in user as actor

const portal = (principal: Principal, source: WebUserSource = 'manual'): DirectoryActor => ({
  actor: auditActor(principal),
  source,
});

export async function listWebUsers(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; includeRemoved?: boolean },
): Promise<WebUser[]> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return webUsersOf(ctx.db, request.customerNumber, request.includeRemoved ?? false);
}

export async function inviteWebUsers(
  ctx: AppContext,
  principal: Principal,
  request: {
    customerNumber: string;
    users: { email: string; name?: string }[];
    source: 'manual' | 'csv';
    preview?: boolean;
  },
): Promise<InviteResult> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const { invites, problems } = collectInvites(request.users, (_, text) => text);
  refuseProblems(problems);
  return invite(
    ctx.db,
    request.customerNumber,
    portal(principal, request.source),
    invites,
    request.preview ?? false,
  );
}

export async function importWebUsersCsv(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; csv: string; preview?: boolean },
): Promise<InviteResult> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const { invites, problems } = csvCells(request.csv);
  refuseProblems(problems);
  return invite(ctx.db, request.customerNumber, portal(principal, 'csv'), invites, request.preview ?? false);
}

export async function updateWebUserOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: {
    customerNumber: string;
    userId: string;
    name?: string;
    role?: WebUserRole;
    state?: 'active' | 'suspended';
  },
): Promise<WebUser> {
  const { customerNumber, userId, ...patch } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  await updateWebUser(ctx.db, customerNumber, portal(principal), userId, patch);
  return (await webUsersOf(ctx.db, customerNumber, false, [userId]))[0];
}

export async function removeWebUsersOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; userIds: string[]; preview?: boolean },
) {
  const { customerNumber, userIds } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  const preview = request.preview ?? false;
  const result = await inTransaction(ctx.db, preview, (tx) =>
    removeWebUsersIn(tx, customerNumber, portal(principal), userIds),
  );
  return {
    preview,
    text: removalText('removes', {
      users: result.users,
      seats: result.seatsFreed,
      sessions: result.sessionsEnded,
    }),
    ...result,
  };
}

export async function listWebGroups(ctx: AppContext, principal: Principal, customerNumber: string) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  return webGroupsOf(ctx.db, customerNumber);
}

export async function createWebGroupOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; name: string },
): Promise<WebGroup> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const group = await createWebGroup(ctx.db, request.customerNumber, portal(principal), {
    name: request.name,
  });
  return (await webGroupsOf(ctx.db, request.customerNumber, [group.id]))[0];
}

export async function renameWebGroupOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; groupId: string; name: string },
): Promise<WebGroup> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  await renameWebGroup(ctx.db, request.customerNumber, portal(principal), request.groupId, request.name);
  return (await webGroupsOf(ctx.db, request.customerNumber, [request.groupId]))[0];
}

export async function deleteWebGroupOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; groupId: string; preview?: boolean },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const preview = request.preview ?? false;
  const { name, ...change } = await inTransaction(ctx.db, preview, (tx) =>
    deleteWebGroupIn(tx, request.customerNumber, portal(principal), request.groupId),
  );
  return { preview, text: groupDeletionText(name, change.removed, change.seatsRemoved), ...change };
}

export async function setWebGroupMembersOfPortal(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; groupId: string; userIds: string[]; preview?: boolean },
) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'edit');
  const preview = request.preview ?? false;
  const change = await inTransaction(ctx.db, preview, (tx) =>
    setWebGroupMembersIn(tx, request.customerNumber, portal(principal), request.groupId, request.userIds),
  );
  return { preview, text: membersText(change), ...change };
}
