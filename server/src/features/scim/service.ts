import { webDirectoryMessages as m, WEB_GROUP_NAME_MAX, WEB_NAME_MAX } from '@lp/domain/web-directory';
import {
  ScimError as PatchError,
  patchBodyValidation,
  type ScimPatch,
  type ScimPatchOperation,
  scimPatch,
} from 'scim-patch';
import { filter as filterOf } from 'scim2-parse-filter';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import {
  changeWebGroupMembersIn,
  createWebGroup,
  createWebUser,
  type DirectoryActor,
  deleteWebGroupIn,
  lockWebGroupVersion,
  lockWebUserVersion,
  removeWebUsersIn,
  renameWebGroupIn,
  setWebGroupMembersIn,
  updateWebUserIn,
  type WebUserPatch,
} from '../web-directory/service.ts';
import {
  membersOfGroups,
  type RowNarrowing,
  type ScimGroupRow,
  type ScimUserRow,
  scimGroupCount,
  scimGroups,
  scimUserCount,
  scimUsers,
} from './repository.ts';
import {
  caselessView,
  etagOf,
  isResourceId,
  namesVersion,
  pageOf,
  parseScimFilter,
  preconditionFailed,
  type ResourceKind,
  ScimError,
  schemaUrns,
  scimBoolean,
  sqlNarrowing,
} from './scim-protocol.ts';
import type { ScimCaller } from './tokens.ts';

/*
 * The SCIM 2.0 resources of an account (issue 24 §3, RFC 7643/7644): Users are the people of its web directory
 * (userName = e-mail; active false = suspended), Groups its groups. Reads are this feature's; every write is one of
 * web-directory's commands with source 'scim' and the token as actor, so the directory's rules (seats freed and
 * sessions ended with a suspension, the last administrator, SCIM-managed groups) and its audit apply unchanged.
 */

type Json = Record<string, unknown>;

const by = (caller: ScimCaller): DirectoryActor => ({ actor: caller.actor, source: 'scim' });

/** Where the account's resources live (absolute when the portal knows its address). */
const baseOf = (ctx: AppContext, customerNumber: string) =>
  `${(ctx.config.PUBLIC_URL ?? '').replace(/\/$/, '')}/scim/v2/${encodeURIComponent(customerNumber)}`;

const meta = (
  ctx: AppContext,
  caller: ScimCaller,
  type: 'User' | 'Group',
  row: { id: string; createdAt: Date; updatedAt: Date; version: number },
) => ({
  resourceType: type,
  created: row.createdAt.toISOString(),
  lastModified: row.updatedAt.toISOString(),
  location: `${baseOf(ctx, caller.customerNumber)}/${type}s/${row.id}`,
  version: etagOf(row.version),
});

function userResource(ctx: AppContext, caller: ScimCaller, row: ScimUserRow): Json {
  return {
    schemas: [schemaUrns.user],
    id: row.id,
    ...(row.scimExternalId !== null && { externalId: row.scimExternalId }),
    userName: row.email,
    name: { formatted: row.name },
    displayName: row.name,
    // An invited person may use a seat: only suspension makes them inactive.
    active: row.state !== 'suspended',
    emails: [{ value: row.email, type: 'work', primary: true }],
    meta: meta(ctx, caller, 'User', row),
  };
}

type Member = { userId: string; email: string };

function groupResource(
  ctx: AppContext,
  caller: ScimCaller,
  row: ScimGroupRow,
  members: readonly Member[] | undefined,
): Json {
  const base = baseOf(ctx, caller.customerNumber);
  return {
    schemas: [schemaUrns.group],
    id: row.id,
    ...(row.scimExternalId !== null && { externalId: row.scimExternalId }),
    displayName: row.name,
    ...(members && {
      members: members.map((p) => ({ value: p.userId, display: p.email, $ref: `${base}/Users/${p.userId}` })),
    }),
    meta: meta(ctx, caller, 'Group', row),
  };
}

/** A resource with its ETag, as the routes answer it. */
export interface Answered {
  resource: Json;
  etag: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the input identity providers send

function objectBody(body: unknown): Json {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimError(400, 'The request body must be a JSON object.', 'invalidSyntax');
  return body as Json;
}

function text(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ScimError(400, `${attribute} must be a string.`, 'invalidValue');
  return value;
}

function required(value: unknown, attribute: string): string {
  const given = text(value, attribute)?.trim();
  if (!given) throw new ScimError(400, `${attribute} is required.`, 'invalidValue');
  return given;
}

/** A person's name from a User: displayName, else name.formatted, else given and family names. */
function nameOf(resource: Json): string | undefined {
  const name = (typeof resource.name === 'object' && resource.name !== null ? resource.name : {}) as Json;
  const display = text(resource.displayName, 'displayName')?.trim();
  const formatted = text(name.formatted, 'name.formatted')?.trim();
  const parts = [text(name.givenName, 'name.givenName'), text(name.familyName, 'name.familyName')]
    .map((p) => p?.trim())
    .filter(Boolean);
  const chosen = display || formatted || parts.join(' ') || undefined;
  if (chosen && chosen.length > WEB_NAME_MAX) throw new ScimError(400, m.nameTooLong, 'invalidValue');
  return chosen;
}

function groupName(value: unknown): string {
  const name = required(value, 'displayName');
  if (name.length > WEB_GROUP_NAME_MAX) throw new ScimError(400, m.groupNameTooLong, 'invalidValue');
  return name;
}

const stateOf = (active: unknown): 'active' | 'suspended' | undefined =>
  active === undefined || active === null
    ? undefined
    : scimBoolean(active, 'active')
      ? 'active'
      : 'suspended';

/** The ids of `members` ([{value}]) as sent. */
function memberIdsOf(members: unknown): string[] {
  if (members === undefined || members === null) return [];
  if (!Array.isArray(members)) throw new ScimError(400, 'members must be a list.', 'invalidValue');
  return [
    ...new Set(
      members.map((member) => {
        const id = text((member as Json | null)?.value, 'members.value');
        if (!id) throw new ScimError(400, 'Each member needs a value (the id of a User).', 'invalidValue');
        return id;
      }),
    ),
  ];
}

/** Refuses members that are not people of the directory (400: the request names something that does not exist). */
async function requirePeople(db: Db, caller: ScimCaller, ids: readonly string[]) {
  if (!ids.length) return;
  const unknown = ids.filter((id) => !isResourceId(id));
  const found = new Set(
    (await scimUsers(db, caller.customerNumber, { ids: ids.filter(isResourceId) })).map((u) => u.id),
  );
  unknown.push(...ids.filter((id) => isResourceId(id) && !found.has(id)));
  if (unknown.length)
    throw new ScimError(400, `No User with the id ${unknown.join(', ')} in this directory.`, 'invalidValue');
}

/** A directory refusal of a value already taken is SCIM's 409 uniqueness. */
async function unique<T>(work: Promise<T>, takenText: string): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppError && e.code === 'CONFLICT' && e.message === takenText)
      throw new ScimError(409, e.message, 'uniqueness');
    throw e;
  }
}

/** The PATCH body checked by scim-patch and applied to `resource` (never changed itself). */
function patched(resource: Json, body: unknown): Json {
  const request = objectBody(body) as unknown as ScimPatch;
  try {
    patchBodyValidation(request);
    return scimPatch(resource as never, request.Operations as ScimPatchOperation[], {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as Json;
  } catch (e) {
    if (e instanceof PatchError)
      throw new ScimError(400, e.message, (e.scimCode as ScimError['scimType']) ?? 'invalidValue');
    // The resource is ours and well formed: anything else the library throws is about the operations sent.
    throw new ScimError(
      400,
      `The PATCH operations cannot be applied: ${(e as Error).message}`,
      'invalidSyntax',
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lists

export interface ListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  excludedAttributes?: string;
}

function listResponse(total: number, startIndex: number, resources: Json[]) {
  return {
    schemas: [schemaUrns.list],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** Narrowing SQL can do; an id that is no uuid matches nothing. */
function narrowingOf(kind: ResourceKind, f: ReturnType<typeof parseScimFilter>): RowNarrowing | null {
  const n = sqlNarrowing(f);
  if (n.ids && !n.ids.every(isResourceId)) return null;
  if (kind === 'user' && n.names) return {};
  return n;
}

export async function listUsers(ctx: AppContext, caller: ScimCaller, query: ListQuery) {
  const { startIndex, count } = pageOf(query.startIndex, query.count);
  const cn = caller.customerNumber;
  if (!query.filter) {
    const [total, rows] = await Promise.all([
      scimUserCount(ctx.db, cn),
      scimUsers(ctx.db, cn, {}, { offset: startIndex - 1, limit: count }),
    ]);
    return listResponse(
      total,
      startIndex,
      rows.map((r) => userResource(ctx, caller, r)),
    );
  }
  const f = parseScimFilter('user', query.filter);
  const narrowed = narrowingOf('user', f);
  const rows = narrowed ? await scimUsers(ctx.db, cn, narrowed) : [];
  const test = filterOf(f);
  const matched = rows.map((r) => userResource(ctx, caller, r)).filter((r) => test(caselessView(r)));
  return listResponse(matched.length, startIndex, matched.slice(startIndex - 1, startIndex - 1 + count));
}

const withoutMembers = (query: { excludedAttributes?: string }) =>
  // A parameter sent twice arrives as a list.
  String(query.excludedAttributes ?? '')
    .split(',')
    .some((a) => a.trim().toLowerCase() === 'members');

async function groupsWithMembers(db: Db, rows: readonly ScimGroupRow[]) {
  const members = await membersOfGroups(
    db,
    rows.map((r) => r.id),
  );
  const of = new Map<string, Member[]>(rows.map((r) => [r.id, []]));
  for (const p of members) of.get(p.groupId)?.push(p);
  return of;
}

export async function listGroups(ctx: AppContext, caller: ScimCaller, query: ListQuery) {
  const { startIndex, count } = pageOf(query.startIndex, query.count);
  const cn = caller.customerNumber;
  const bare = withoutMembers(query);
  if (!query.filter) {
    const [total, rows] = await Promise.all([
      scimGroupCount(ctx.db, cn),
      scimGroups(ctx.db, cn, {}, { offset: startIndex - 1, limit: count }),
    ]);
    const members = bare ? undefined : await groupsWithMembers(ctx.db, rows);
    return listResponse(
      total,
      startIndex,
      rows.map((r) => groupResource(ctx, caller, r, members?.get(r.id))),
    );
  }
  const f = parseScimFilter('group', query.filter);
  const narrowed = narrowingOf('group', f);
  const rows = narrowed ? await scimGroups(ctx.db, cn, { ...narrowed, emails: undefined }) : [];
  const members = await groupsWithMembers(ctx.db, rows);
  const test = filterOf(f);
  const matched = rows.filter((r) => test(caselessView(groupResource(ctx, caller, r, members.get(r.id)))));
  return listResponse(
    matched.length,
    startIndex,
    matched
      .slice(startIndex - 1, startIndex - 1 + count)
      .map((r) => groupResource(ctx, caller, r, bare ? undefined : members.get(r.id))),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Users

const noUser = () => new ScimError(404, `No User with this id in this directory.`);
const noGroup = () => new ScimError(404, `No Group with this id in this directory.`);

async function userRow(db: Db, caller: ScimCaller, id: string): Promise<ScimUserRow> {
  const [row] = isResourceId(id) ? await scimUsers(db, caller.customerNumber, { ids: [id] }) : [];
  if (!row) throw noUser();
  return row;
}

/** A read whose client holds the current version already (RFC 9110 §13.1.2): 304 with the ETag, no body. */
export interface NotModified {
  notModified: true;
  etag: string;
}

const notModified = (version: number): NotModified => ({ notModified: true, etag: etagOf(version) });
/** Whether a GET's If-None-Match names `version`: the client's copy is current. */
const isCurrent = (ifNoneMatch: string | undefined, version: number) =>
  ifNoneMatch !== undefined && namesVersion(ifNoneMatch, version);

const userAnswer = (ctx: AppContext, caller: ScimCaller, row: ScimUserRow): Answered => ({
  resource: userResource(ctx, caller, row),
  etag: etagOf(row.version),
});

async function answerUser(ctx: AppContext, caller: ScimCaller, id: string): Promise<Answered> {
  return userAnswer(ctx, caller, await userRow(ctx.db, caller, id));
}

export async function getUser(ctx: AppContext, caller: ScimCaller, id: string, ifNoneMatch?: string) {
  const row = await userRow(ctx.db, caller, id);
  if (isCurrent(ifNoneMatch, row.version)) return notModified(row.version);
  return userAnswer(ctx, caller, row);
}

/** How a write locks a resource of each kind (the directory's lock order), and its 404. */
const lockOf: Record<ResourceKind, { lock: typeof lockWebUserVersion; unknown: () => ScimError }> = {
  user: { lock: lockWebUserVersion, unknown: noUser },
  group: { lock: lockWebGroupVersion, unknown: noGroup },
};

/**
 * A write to one resource in one transaction (RFC 7644 §3.14): the resource is locked, its version checked against
 * the If-Match the client sent (412 when it names another), and `work` makes the change with the directory's
 * commands in the same transaction, so no other write lands between the check and the change, and a change of
 * several steps (a group's name and members) is made whole or not at all.
 */
async function writeLocked<T>(
  ctx: AppContext,
  caller: ScimCaller,
  kind: ResourceKind,
  id: string,
  ifMatch: string | undefined,
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  const { lock, unknown } = lockOf[kind];
  if (!isResourceId(id)) throw unknown();
  return ctx.db.transaction(async (tx) => {
    const version = await lock(tx, caller.customerNumber, id);
    if (version === null) throw unknown();
    if (ifMatch !== undefined && !namesVersion(ifMatch, version)) throw preconditionFailed();
    return work(tx);
  });
}

/** POST /Users (RFC 7644 §3.3): 409 uniqueness when the userName (e-mail) is in the directory already. */
export async function createUser(ctx: AppContext, caller: ScimCaller, body: unknown): Promise<Answered> {
  const resource = objectBody(body);
  const email = required(resource.userName, 'userName').toLowerCase();
  const made = await unique(
    createWebUser(ctx.db, caller.customerNumber, by(caller), {
      email,
      name: nameOf(resource),
      state: stateOf(resource.active) ?? 'active',
      externalId: text(resource.externalId, 'externalId') ?? null,
    }),
    m.emailTaken(email),
  );
  return answerUser(ctx, caller, made.id);
}

/** PUT /Users/{id}: the person as sent (a name or active not sent keeps its value; externalId not sent goes). */
export async function replaceUser(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<Answered> {
  const resource = objectBody(body);
  const email = required(resource.userName, 'userName').toLowerCase();
  const input = {
    email,
    name: nameOf(resource),
    state: stateOf(resource.active),
    externalId: text(resource.externalId, 'externalId') ?? null,
  };
  await writeLocked(ctx, caller, 'user', id, ifMatch, (tx) =>
    unique(updateWebUserIn(tx, caller.customerNumber, by(caller), id, input), m.emailTaken(email)),
  );
  return answerUser(ctx, caller, id);
}

/**
 * PATCH /Users/{id}: the operations applied by scim-patch to the User as it is, then the attributes this
 * directory keeps (userName, the name, externalId, active) compared and the change made in one command.
 * Attributes it does not keep (an enterprise extension's department) are accepted and not stored.
 */
export async function patchUser(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<Answered> {
  await writeLocked(ctx, caller, 'user', id, ifMatch, async (tx) => {
    const row = await userRow(tx, caller, id);
    const change = userPatchOf(ctx, caller, row, body);
    if (Object.keys(change).length)
      await unique(
        updateWebUserIn(tx, caller.customerNumber, by(caller), id, change),
        m.emailTaken(change.email ?? ''),
      );
  });
  return answerUser(ctx, caller, id);
}

/** The directory's change that a PATCH of the User `row` makes (empty when it changes nothing the directory keeps). */
function userPatchOf(ctx: AppContext, caller: ScimCaller, row: ScimUserRow, body: unknown): WebUserPatch {
  const before = userResource(ctx, caller, row);
  const after = patched(before, body);
  const change: WebUserPatch = {};
  const userName = required(after.userName, 'userName').toLowerCase();
  if (userName !== row.email) change.email = userName;
  // The directory keeps one name: a PATCH changes it through displayName or name.formatted (a given or family
  // name alone would replace the whole name with a part of it).
  const afterName = (typeof after.name === 'object' && after.name !== null ? after.name : {}) as Json;
  const name =
    after.displayName !== before.displayName
      ? text(after.displayName, 'displayName')?.trim()
      : afterName.formatted !== row.name
        ? text(afterName.formatted, 'name.formatted')?.trim()
        : undefined;
  if (name !== undefined && name !== row.name) {
    if (name.length > WEB_NAME_MAX) throw new ScimError(400, m.nameTooLong, 'invalidValue');
    change.name = name;
  }
  const externalId = text(after.externalId, 'externalId') ?? null;
  if (externalId !== row.scimExternalId) change.externalId = externalId;
  const state = stateOf(after.active);
  if (state && (state === 'suspended') !== (row.state === 'suspended')) change.state = state;
  return change;
}

/** DELETE /Users/{id}: the person is removed (seats and sessions freed); a removed person is then unknown. */
export async function deleteUser(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  ifMatch?: string,
): Promise<void> {
  await writeLocked(ctx, caller, 'user', id, ifMatch, (tx) =>
    removeWebUsersIn(tx, caller.customerNumber, by(caller), [id]),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Groups

async function groupRow(db: Db, caller: ScimCaller, id: string): Promise<ScimGroupRow> {
  const [row] = isResourceId(id) ? await scimGroups(db, caller.customerNumber, { ids: [id] }) : [];
  if (!row) throw noGroup();
  return row;
}

async function groupAnswer(
  ctx: AppContext,
  caller: ScimCaller,
  row: ScimGroupRow,
  query: { excludedAttributes?: string },
): Promise<Answered> {
  const members = withoutMembers(query) ? undefined : (await groupsWithMembers(ctx.db, [row])).get(row.id);
  return { resource: groupResource(ctx, caller, row, members), etag: etagOf(row.version) };
}

async function answerGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  query: { excludedAttributes?: string } = {},
): Promise<Answered> {
  return groupAnswer(ctx, caller, await groupRow(ctx.db, caller, id), query);
}

export async function getGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  query: { excludedAttributes?: string },
  ifNoneMatch?: string,
) {
  const row = await groupRow(ctx.db, caller, id);
  // Not Modified is decided before the members are read: a client polling an unchanged group costs one row.
  if (isCurrent(ifNoneMatch, row.version)) return notModified(row.version);
  return groupAnswer(ctx, caller, row, query);
}

/** POST /Groups: a group managed by the identity provider (source scim), with its members. */
export async function createGroup(ctx: AppContext, caller: ScimCaller, body: unknown): Promise<Answered> {
  const resource = objectBody(body);
  const name = groupName(resource.displayName);
  const memberIds = memberIdsOf(resource.members);
  await requirePeople(ctx.db, caller, memberIds);
  const made = await unique(
    createWebGroup(ctx.db, caller.customerNumber, by(caller), {
      name,
      externalId: text(resource.externalId, 'externalId') ?? null,
      memberIds,
    }),
    m.groupNameTaken(name),
  );
  return answerGroup(ctx, caller, made.id);
}

/** Renames (and re-keys) a locked group when its displayName or externalId changed. */
async function renameIfChanged(
  tx: Db,
  caller: ScimCaller,
  row: ScimGroupRow,
  name: string,
  externalId: string | null,
) {
  if (name === row.name && externalId === row.scimExternalId) return;
  await unique(
    renameWebGroupIn(tx, caller.customerNumber, by(caller), row.id, name, externalId),
    m.groupNameTaken(name),
  );
}

/** PUT /Groups/{id}: name, externalId and the members as sent (members not sent: none). */
export async function replaceGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<Answered> {
  const resource = objectBody(body);
  const name = groupName(resource.displayName);
  const memberIds = memberIdsOf(resource.members);
  const externalId = text(resource.externalId, 'externalId') ?? null;
  await writeLocked(ctx, caller, 'group', id, ifMatch, async (tx) => {
    await requirePeople(tx, caller, memberIds);
    await renameIfChanged(tx, caller, await groupRow(tx, caller, id), name, externalId);
    await setWebGroupMembersIn(tx, caller.customerNumber, by(caller), id, memberIds);
  });
  return answerGroup(ctx, caller, id);
}

/**
 * PATCH /Groups/{id}: the operations applied by scim-patch (add and remove of `members`, Entra's
 * `members[value eq "…"]`, a new displayName) to the group as it is once locked, then the name and the members
 * who came and went changed with the directory's commands, in one transaction.
 */
export async function patchGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  body: unknown,
  query: { excludedAttributes?: string } = {},
  ifMatch?: string,
): Promise<Answered> {
  await writeLocked(ctx, caller, 'group', id, ifMatch, async (tx) => {
    const row = await groupRow(tx, caller, id);
    const members = (await groupsWithMembers(tx, [row])).get(row.id) ?? [];
    // scim-patch removes listed values by equality: members are compared by their value alone (Entra sends
    // `{"op":"Remove","path":"members","value":[{"value":"…"}]}`, others add a display).
    const current = {
      ...groupResource(ctx, caller, row, members),
      members: members.map((p) => ({ value: p.userId })),
    };
    const after = patched(current, byValueOnly(body));
    const now = new Set(memberIdsOf(after.members ?? []));
    const was = new Set(members.map((p) => p.userId));
    const add = [...now].filter((m) => !was.has(m));
    const remove = [...was].filter((m) => !now.has(m));
    await requirePeople(tx, caller, add);
    await renameIfChanged(
      tx,
      caller,
      row,
      groupName(after.displayName),
      text(after.externalId, 'externalId') ?? null,
    );
    if (add.length || remove.length)
      await changeWebGroupMembersIn(tx, caller.customerNumber, by(caller), id, { add, remove });
  });
  return answerGroup(ctx, caller, id, query);
}

/** A group PATCH with the values of its `remove` of members cut to `{value}`, as the group is patched. */
function byValueOnly(body: unknown): unknown {
  const request = objectBody(body);
  if (!Array.isArray(request.Operations)) return request;
  return {
    ...request,
    Operations: request.Operations.map((op: Json) =>
      typeof op?.op === 'string' &&
      op.op.toLowerCase() === 'remove' &&
      typeof op.path === 'string' &&
      op.path.toLowerCase() === 'members' &&
      Array.isArray(op.value)
        ? { ...op, value: op.value.map((v: Json | null) => ({ value: v?.value })) }
        : op,
    ),
  };
}

/** DELETE /Groups/{id}: the group goes, and the seats its members held through it. */
export async function deleteGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  ifMatch?: string,
): Promise<void> {
  await writeLocked(ctx, caller, 'group', id, ifMatch, (tx) =>
    deleteWebGroupIn(tx, caller.customerNumber, by(caller), id),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Discovery (RFC 7644 §4): what this endpoint supports, minimal but valid

export function serviceProviderConfig(ctx: AppContext, caller: ScimCaller) {
  return {
    schemas: [schemaUrns.serviceProviderConfig],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A SCIM token an administrator of the account issues in the portal.',
        primary: true,
      },
    ],
    meta: {
      resourceType: 'ServiceProviderConfig',
      location: `${baseOf(ctx, caller.customerNumber)}/ServiceProviderConfig`,
    },
  };
}

const resourceTypeOf = (ctx: AppContext, caller: ScimCaller, type: 'User' | 'Group') => ({
  schemas: [schemaUrns.resourceType],
  id: type,
  name: type,
  endpoint: `/${type}s`,
  description: type === 'User' ? 'A person of the web directory' : 'A group of the web directory',
  schema: type === 'User' ? schemaUrns.user : schemaUrns.group,
  meta: {
    resourceType: 'ResourceType',
    location: `${baseOf(ctx, caller.customerNumber)}/ResourceTypes/${type}`,
  },
});

export const resourceTypes = (ctx: AppContext, caller: ScimCaller) =>
  listResponse(2, 1, [resourceTypeOf(ctx, caller, 'User'), resourceTypeOf(ctx, caller, 'Group')]);

const attribute = (
  name: string,
  type: 'string' | 'boolean' | 'complex' | 'reference',
  extra: Json = {},
): Json => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const schemaDefinitions = (ctx: AppContext, caller: ScimCaller) => [
  {
    schemas: [schemaUrns.schema],
    id: schemaUrns.user,
    name: 'User',
    description: 'A person of the web directory; userName is the e-mail address',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('displayName', 'string'),
      attribute('name', 'complex', { subAttributes: [attribute('formatted', 'string')] }),
      attribute('active', 'boolean'),
      attribute('emails', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          attribute('value', 'string'),
          attribute('type', 'string'),
          attribute('primary', 'boolean'),
        ],
      }),
    ],
    meta: {
      resourceType: 'Schema',
      location: `${baseOf(ctx, caller.customerNumber)}/Schemas/${schemaUrns.user}`,
    },
  },
  {
    schemas: [schemaUrns.schema],
    id: schemaUrns.group,
    name: 'Group',
    description: 'A group of the web directory; a group given a named pool gives its members seats',
    attributes: [
      attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('members', 'complex', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', { caseExact: true, mutability: 'immutable' }),
          attribute('display', 'string', { mutability: 'readOnly' }),
          attribute('$ref', 'reference', { mutability: 'immutable', referenceTypes: ['User'] }),
        ],
      }),
    ],
    meta: {
      resourceType: 'Schema',
      location: `${baseOf(ctx, caller.customerNumber)}/Schemas/${schemaUrns.group}`,
    },
  },
];

export const schemas = (ctx: AppContext, caller: ScimCaller) => {
  const all = schemaDefinitions(ctx, caller);
  return listResponse(all.length, 1, all);
};

export function schemaById(ctx: AppContext, caller: ScimCaller, id: string) {
  const found = schemaDefinitions(ctx, caller).find((s) => s.id === id);
  if (!found) throw new ScimError(404, 'No such schema.');
  return found;
}

export function resourceTypeById(ctx: AppContext, caller: ScimCaller, id: string) {
  if (id !== 'User' && id !== 'Group') throw new ScimError(404, 'No such resource type.');
  return resourceTypeOf(ctx, caller, id);
}
