import type { CreateRequest } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import {
  type HostIdentity,
  type HostIdType,
  hostIdentifier,
  hostIdMessages,
  humanHostIdType,
  parseHostIdentity,
  serialiseHostIdentity,
  validateHostName,
} from '@lp/domain/host-ids';
import { parseHostUpload } from '@lp/domain/license-file-parse';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { accessOf, authorizeAccount, permits } from '../accounts/policy.ts';
import type { AuditChange } from '../audit/service.ts';
import { type HostUnit, withHostWrite } from './host-write.ts';
import {
  addHostAccount,
  findHostByIdentity,
  findHostInUseWithAnyId,
  type HostRow,
  insertHost,
  listElasticServers,
  listHostAccounts,
  listHostsOfAccount,
  lockHostsById,
  removeHostAccount,
  setSharedGroupFlags,
  updateHost,
} from './repository.ts';

/** The host unit of work (decision 063): activations' commands run in it. */
export { type HostUnit, withHostWrite } from './host-write.ts';
export type { HostRow } from './repository.ts';

/** Answer for a host the account does not use: the same whether it exists elsewhere or not at all. */
export const unknownHost = 'No license server with this host id for this account.';

/**
 * The account's running elastic license servers, oldest first, without an authorization check: for callers that
 * have already passed the account gate or act for a license server (decision 026: other features call this,
 * never the repository). `hostIdentity` is the server's CLS id.
 */
export async function elasticServersOf(db: Db, customerNumber: string) {
  return listElasticServers(db, customerNumber);
}

/** A host's ids and types as the calls carry them, checked (spec 002 §5); 400 with the spec's text otherwise. */
export function parseHost(hostId: string, hostIdType: string): { identity: HostIdentity; key: string } {
  const parsed = parseHostIdentity(hostId, hostIdType);
  if (!parsed.ok) throw badRequest(parsed.err);
  return { identity: parsed.identity, key: hostIdentifier(parsed.identity) };
}

const identityOf = (host: HostRow): HostIdentity => ({
  ids: host.hostIds.split(','),
  types: host.hostIdTypes.split(',') as HostIdType[],
});

/** The host's servers (three for a triad, in the order entered) as its SERVER lines name them. */
export function serversOfHost(host: HostRow) {
  const { ids, types } = identityOf(host);
  const names = host.serverNames.split(',');
  return ids.map((id, i) => ({ name: names[i] ?? names[0], type: types[i], id, port: host.port }));
}

/**
 * Spec 002 §3: the host as the screens show it (ETHERNET is shown as MAC_ADDRESS in the display name). The display
 * name is 'name (TYPE=id)' per server, a triad's three joined by ', ' (decision 049): the history rows and their
 * CSV name every server of a triad, not only the first.
 */
export function presentHost(host: HostRow, accountCount: number): LicenseServer {
  const identity = identityOf(host);
  const wire = serialiseHostIdentity(identity);
  return {
    id: host.id,
    name: host.name,
    serverName: host.serverNames,
    state: host.state as LicenseServer['state'],
    serverId: wire.serverId,
    serverIdType: wire.serverIdType,
    hostIdentifier: host.hostIdentity,
    displayName: serversOfHost(host)
      .map((s) => `${s.name} (${humanHostIdType(s.type)}=${s.id})`)
      .join(', '),
    portNumber: host.port,
    triad: identity.ids.length === 3,
    ansysborrowable: host.borrowable,
    shared: accountCount > 1,
  };
}

const stateOrder: Record<string, number> = { Active: 0, Inactive: 1 };

/** Spec 002 §4: Active first, then Inactive, then others; then by name, id and id type. */
export function compareHosts(a: LicenseServer, b: LicenseServer): number {
  return (
    (stateOrder[a.state] ?? 2) - (stateOrder[b.state] ?? 2) ||
    a.name.localeCompare(b.name) ||
    a.serverId.localeCompare(b.serverId) ||
    a.serverIdType.localeCompare(b.serverIdType)
  );
}

export async function listHosts(ctx: AppContext, principal: Principal, customerNumber: string) {
  await authorizeAccount(ctx, principal, customerNumber, 'activations');
  const rows = await listHostsOfAccount(ctx.db, customerNumber);
  return rows.map((r) => presentHost(r.host, r.accountCount)).sort(compareHosts);
}

/** The host the account uses with these ids, or undefined (no check of the caller: see `hostOfAccount`). */
export async function findAccountHost(db: Db, customerNumber: string, hostId: string, hostIdType: string) {
  const { key } = parseHost(hostId, hostIdType);
  const host = await findHostByIdentity(db, key);
  if (!host) return undefined;
  const members = await listHostAccounts(db, host.id);
  if (!members.some((m) => m.customerNumber === customerNumber)) return undefined;
  return { host, members };
}

/** The account's host named by ids, after the account gate; 404 for a host the account does not use. */
async function hostOfAccount(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostId: string; hostIdType: string },
  action: 'activations' | 'activate',
) {
  await authorizeAccount(ctx, principal, request.customerNumber, action);
  const found = await findAccountHost(ctx.db, request.customerNumber, request.hostId, request.hostIdType);
  if (!found) throw notFound(unknownHost);
  return found;
}

/** Which of `customerNumbers` pass the account gate for `action` (the others are left out, never named): one query. */
async function allowedAccounts(
  ctx: AppContext,
  principal: Principal,
  customerNumbers: string[],
  action: 'activate' | 'activations',
) {
  const access = await accessOf(ctx.db, principal, customerNumbers);
  return customerNumbers.filter((cn) => permits(access.get(cn), action));
}

/** Which of `customerNumbers` the user may act for (edit, activations allowed, not export-blocked). */
export const editableAccounts = (ctx: AppContext, principal: Principal, customerNumbers: string[]) =>
  allowedAccounts(ctx, principal, customerNumbers, 'activate');

/** Accounts the user may read among `customerNumbers` (a shared host's other accounts stay unnamed otherwise). */
const visibleAccounts = (ctx: AppContext, principal: Principal, customerNumbers: string[]) =>
  allowedAccounts(ctx, principal, customerNumbers, 'activations');

/** The account's host after the account gate (404 otherwise) and the accounts on it the user may see. */
export async function visibleHost(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostId: string; hostIdType: string },
) {
  const { host, members } = await hostOfAccount(ctx, principal, request, 'activations');
  const visible = new Set(
    await visibleAccounts(
      ctx,
      principal,
      members.map((m) => m.customerNumber),
    ),
  );
  return { host, members: members.filter((m) => visible.has(m.customerNumber)) };
}

/** Spec 002 §7 /api/fulfillments/customers: the host's accounts the user may see. */
export async function hostCustomers(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostId: string; hostIdType: string },
) {
  const { members } = await visibleHost(ctx, principal, request);
  return members.map((m) => ({ AccountID: m.customerNumber, AccountName: m.customerName }));
}

/** Spec 002 §7 /api/fulfillments/override: shared or not, and how many accounts the user cannot see. */
export async function hostOverride(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostId: string; hostIdType: string },
) {
  const { members } = await hostOfAccount(ctx, principal, request, 'activations');
  const visible = await visibleAccounts(
    ctx,
    principal,
    members.map((m) => m.customerNumber),
  );
  return { shared: members.length > 1, otherCustomers: members.length - visible.length };
}

/** A host as its audit entries name it. */
const hostObject = (host: HostRow) => ({ type: 'license-server', id: host.hostIdentity });

/** The host's settings a user chooses, as audit entries show them. */
const hostSettings = (host: HostRow) => ({
  name: host.name,
  serverNames: host.serverNames,
  port: host.port,
  borrowable: host.borrowable,
});

/** Host names as typed: one, or one per server of a triad (comma-joined); spec 002 §5 rule for each. */
export function parseHostNames(serverName: string, servers: number): string[] {
  const names = serverName.split(',').map((n) => n.trim());
  const list = names.length === servers ? names : names.length === 1 ? names : null;
  if (!list) throw badRequest(hostIdMessages.invalidHostName);
  for (const name of list) {
    const problem = validateHostName(name);
    if (problem) throw badRequest(problem);
  }
  // A triad typed with one name gets that name on each SERVER line, numbered so FlexLM can tell them apart.
  return list.length === servers
    ? list
    : list.length === 1 && servers === 3
      ? [1, 2, 3].map((i) => `${list[0]}${i}`)
      : list;
}

/**
 * Spec 002 §5 server checks of a create's host (decision 047), throwing the spec's texts: `host` is the host with
 * this identity, if any, and `members` its accounts.
 * - type 'new', or an account the user may not act for: the identity must be unused ('Host identifier {name} ({id})
 *   is already in use.', with the rehost hint when the existing host has another name and the user may see it;
 *   {name} is that host's when the user may see it, else the name typed);
 * - type 'rehost': the same, except that an Inactive host other than the source may be reused; an active target
 *   (or the source) under the same name gets 'Host {name} ({identifier}) is active.';
 * - a host not known yet may not take in an id of a host in use (a triad's member, or a single host a triad would
 *   take in). The rehost source's ids are free for its target: it is Inactive by the time the target is created,
 *   and `exceptHost` leaves it out when the check runs before its seats are returned.
 */
async function refuseTakenHost(
  db: Db,
  editors: ReadonlySet<string>,
  request: Pick<CreateRequest, 'customerNumber' | 'type' | 'prevServer'>,
  target: { name: string; key: string; ids: string[] },
  host: HostRow | undefined,
  members: string[],
  exceptHost?: number,
) {
  const { name, key, ids } = target;
  if (!host) {
    const taken = await findHostInUseWithAnyId(db, ids, exceptHost);
    if (!taken) return;
    const shared = ids.find((id) => taken.hostIds.split(',').includes(id)) ?? key;
    const seen = (await listHostAccounts(db, taken.id)).some(
      (m) => m.customerNumber === request.customerNumber,
    );
    throw new AppError('CONFLICT', hostIdMessages.inUse(seen ? taken.name : name, shared));
  }
  const mayUse = members.some((cn) => editors.has(cn));
  const mayJoin = mayUse || members.includes(request.customerNumber);
  // A rehost target is checked as an added host: one in use, or the source itself, is refused instead of merging
  // the seats into it; an Inactive host may be reused.
  const isSource =
    !!request.prevServer &&
    parseHost(request.prevServer.serverId, request.prevServer.serverIdType).key === key;
  const rehostTaken = request.type === 'rehost' && (host.state !== 'Inactive' || isSource);
  if (rehostTaken && (host.state === 'Active' || isSource) && host.name === name)
    throw new AppError('CONFLICT', hostIdMessages.active(name, key));
  if (request.type === 'new' || rehostTaken || !mayJoin) {
    // The message names the host holding the id when the user may see it, else only the name typed.
    throw new AppError(
      'CONFLICT',
      mayJoin && host.name !== name
        ? hostIdMessages.inUseRehostHint(host.name, key)
        : hostIdMessages.inUse(mayJoin ? host.name : name, key),
    );
  }
}

/** A rehost's target as the return names it (decision 047). */
type RehostTarget = Pick<CreateRequest, 'serverName' | 'serverId' | 'serverIdType'> & {
  prevServer: NonNullable<CreateRequest['prevServer']>;
};

/**
 * Spec 002 §5 "Server checks (add host and rehost target)" for a rehost target before the source's seats are
 * returned (decision 047), inside the return's host unit of work: the returns refuse what the target's create would,
 * so a refused target leaves the source as it was. The create checks again in its own unit. `target` is what
 * `lockHostsAndTarget` found.
 */
export async function refuseRehostTarget(
  tx: Db,
  editors: ReadonlySet<string>,
  customerNumber: string,
  request: RehostTarget,
  target: { host: HostRow | undefined; members: string[]; sourceId: number | undefined },
) {
  const { identity, key } = parseHost(request.serverId, request.serverIdType);
  const names = parseHostNames(request.serverName, identity.ids.length);
  await refuseTakenHost(
    tx,
    editors,
    { customerNumber, type: 'rehost', prevServer: request.prevServer },
    { name: names[0], key, ids: serialiseHostIdentity(identity).serverId.split(',') },
    target.host,
    target.members,
    target.sourceId,
  );
}

/**
 * The hosts a return changes (its fulfillments' hosts) and a rehost's target host, locked in id order, and the
 * accounts on them for the unit's gate. The target's source is looked up for the target check.
 */
export async function lockHostsAndTarget(
  tx: Db,
  hostRowIds: number[],
  rehostTarget: RehostTarget | undefined,
) {
  const targetKey = rehostTarget && parseHost(rehostTarget.serverId, rehostTarget.serverIdType).key;
  const targetHost = targetKey ? await findHostByIdentity(tx, targetKey) : undefined;
  const ids = [...new Set([...hostRowIds, ...(targetHost ? [targetHost.id] : [])])].sort((a, b) => a - b);
  const locked = await lockHostsById(tx, ids);
  const membersOf = new Map<number, string[]>();
  for (const host of locked)
    membersOf.set(
      host.id,
      (await listHostAccounts(tx, host.id)).map((m) => m.customerNumber),
    );
  const source =
    rehostTarget &&
    (await findHostByIdentity(
      tx,
      parseHost(rehostTarget.prevServer.serverId, rehostTarget.prevServer.serverIdType).key,
    ));
  const host = targetHost && locked.find((h) => h.id === targetHost.id);
  return {
    hosts: locked.filter((h) => hostRowIds.includes(h.id)),
    members: [...new Set([...membersOf.values()].flat())],
    target: { host, members: host ? (membersOf.get(host.id) ?? []) : [], sourceId: source?.id },
  };
}

/** The host with these ids, locked, and its accounts (none when it does not exist yet): a create's unit locks it. */
export async function lockHostOf(tx: Db, hostId: string, hostIdType: string) {
  const { key } = parseHost(hostId, hostIdType);
  const host = await findHostByIdentity(tx, key, true);
  const members = host ? (await listHostAccounts(tx, host.id)).map((m) => m.customerNumber) : [];
  return { host, members };
}

/**
 * The host a create batch activates on, inside the batch's host unit of work (`locked` by `lockHostOf`):
 * `refuseTakenHost` applies the spec 002 §5
 * server checks; otherwise the host must exist and serve an account the user may edit, and the batch's account
 * joins it (a shared license server). Unknown hosts are added in state Unknown and used at once. Answers the host,
 * whether it was added (a new row), and the audit changes for the batch to record last (after its other locks: see
 * `createFulfillments`).
 */
export async function hostForCreate(
  tx: Db,
  editors: ReadonlySet<string>,
  principal: Principal,
  request: Pick<
    CreateRequest,
    | 'customerNumber'
    | 'serverName'
    | 'serverId'
    | 'serverIdType'
    | 'portNumber'
    | 'ansysborrowable'
    | 'type'
    | 'prevServer'
  >,
  locked: { host: HostRow | undefined; members: string[] },
): Promise<{ host: HostRow; inserted: boolean; changes: AuditChange[] }> {
  const { identity, key } = parseHost(request.serverId, request.serverIdType);
  const names = parseHostNames(request.serverName, identity.ids.length);
  const name = names[0];
  let host = locked.host;
  const { members } = locked;
  const inserted = !host;
  const wire = serialiseHostIdentity(identity);
  await refuseTakenHost(tx, editors, request, { name, key, ids: wire.serverId.split(',') }, host, members);
  if (!host) {
    host = await insertHost(tx, {
      kind: 'flexlm',
      hostIdentity: key,
      hostIds: wire.serverId,
      hostIdTypes: wire.serverIdType,
      name,
      serverNames: names.join(','),
      port: request.portNumber ?? 1055,
      borrowable: request.ansysborrowable ?? false,
      state: 'Unknown',
      createdBy: principal.email,
    });
    // Another batch added the same identity a moment ago: it is in use now.
    if (!host) throw new AppError('CONFLICT', hostIdMessages.inUse(name, key));
  }
  await addHostAccount(tx, host.id, request.customerNumber);
  const change: Parameters<typeof updateHost>[2] = {};
  // Port and Borrowable go into every account's file: only a user who may edit all of them changes them.
  const mayChangeHost = members.every((cn) => cn === request.customerNumber || editors.has(cn));
  if (mayChangeHost) {
    if (request.ansysborrowable !== undefined && request.ansysborrowable !== host.borrowable)
      change.borrowable = request.ansysborrowable;
    if (request.portNumber !== undefined && request.portNumber !== host.port)
      change.port = request.portNumber;
    await updateHost(tx, host.id, change);
  }
  const changed = { ...host, ...change };
  const { customerNumber } = request;
  const changes: AuditChange[] = [];
  // The account's own view: the host joins it (new, or a host other accounts use), or its settings change.
  if (!members.includes(customerNumber))
    changes.push({
      customerNumber,
      action: 'license-servers.added',
      object: hostObject(changed),
      after: hostSettings(changed),
    });
  else
    changes.push({
      customerNumber,
      action: 'license-servers.changed',
      object: hostObject(changed),
      before: hostSettings(host),
      after: hostSettings(changed),
    });
  return { host: changed, inserted, changes };
}

/** A host the account uses, locked for the rest of the transaction; 404 otherwise. */
export async function lockAccountHost(tx: Db, customerNumber: string, hostId: string, hostIdType: string) {
  const { key } = parseHost(hostId, hostIdType);
  const host = await findHostByIdentity(tx, key, true);
  if (!host) throw notFound(unknownHost);
  const members = await listHostAccounts(tx, host.id);
  if (!members.some((m) => m.customerNumber === customerNumber)) throw notFound(unknownHost);
  return { host, members };
}

interface HostWriteRequest {
  customerNumber: string;
  hostId: string;
  hostIdType: string;
  operationKey?: string;
}

type Membership = Map<string, boolean>;

const membershipOf = (members: { customerNumber: string; inSharedGroup: boolean }[]): Membership =>
  new Map(members.map((m) => [m.customerNumber, m.inSharedGroup]));

/**
 * What a host write changed, one entry per account in that account's log (a shared host's other accounts are
 * never named in it): the account joined the host, left it (the host deleted with its last account), or joined or
 * left the host's shared-server group.
 */
function membershipChanges(host: HostRow, before: Membership, after: Membership, hostGone: boolean) {
  const changes: AuditChange[] = [];
  const object = hostObject(host);
  for (const customerNumber of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(customerNumber);
    const is = after.get(customerNumber);
    if (was === is) continue;
    if (was === undefined)
      changes.push({
        customerNumber,
        action: 'license-servers.added',
        object,
        after: { ...hostSettings(host), sharedGroup: is },
      });
    else if (is === undefined)
      changes.push({
        customerNumber,
        action: hostGone ? 'license-servers.deleted' : 'license-servers.removed',
        object,
        before: { ...hostSettings(host), state: host.state, sharedGroup: was },
      });
    else
      changes.push({
        customerNumber,
        action: 'license-servers.shared-group.changed',
        object,
        before: { sharedGroup: was },
        after: { sharedGroup: is },
      });
  }
  return changes;
}

/**
 * One write on the account's host, as a host unit of work (decision 063): the host locked, the account and every
 * account on the host (and `also`, e.g. a new shared group) checked by one gate query in the transaction, answered
 * once per operation key over `fields`. `write` gets the unit, the host and its accounts the user may edit;
 * `check` runs first, with the accounts the user may edit. The accounts' memberships before and after are compared
 * and recorded in the unit's one audit batch.
 */
async function writeHost(
  ctx: AppContext,
  principal: Principal,
  request: HostWriteRequest,
  write: {
    operation: string;
    fields: object;
    also?: string[];
    check?: (editors: ReadonlySet<string>) => void;
    run: (unit: HostUnit, host: HostRow, editable: string[]) => Promise<void>;
  },
) {
  await withHostWrite(ctx, principal, {
    operation: write.operation,
    customerNumber: request.customerNumber,
    key: request.operationKey,
    fields: write.fields,
    lock: async (tx) => {
      const { key } = parseHost(request.hostId, request.hostIdType);
      const host = await findHostByIdentity(tx, key, true);
      const rows = host ? await listHostAccounts(tx, host.id) : [];
      return { host, rows, members: [...rows.map((m) => m.customerNumber), ...(write.also ?? [])] };
    },
    run: async (unit, { host, rows }) => {
      write.check?.(unit.editors);
      if (!host || !rows.some((m) => m.customerNumber === request.customerNumber))
        throw notFound(unknownHost);
      await write.run(
        unit,
        host,
        rows.map((m) => m.customerNumber).filter((cn) => unit.editors.has(cn)),
      );
      const after = await listHostAccounts(unit.tx, host.id);
      unit.audit.push(
        ...membershipChanges(host, membershipOf(rows), membershipOf(after), after.length === 0),
      );
    },
  });
}

/** The fields of a host write the server reads (the operation key covers these). */
const hostFields = (r: HostWriteRequest) => ({
  customerNumber: r.customerNumber,
  hostId: r.hostId,
  hostIdType: r.hostIdType,
});

/**
 * Spec 002 §4 save flow step 3: the host's shared-server group becomes the given approved accounts. Only accounts
 * the user may edit are touched; a listed account the user may not edit is refused (403), never silently dropped.
 */
export async function setSharedGroup(
  ctx: AppContext,
  principal: Principal,
  request: HostWriteRequest & { group: string[] },
) {
  const group = [...new Set(request.group)];
  await writeHost(ctx, principal, request, {
    operation: 'sharedserver',
    fields: { ...hostFields(request), group: request.group },
    also: group,
    check: (editors) => {
      if (group.some((cn) => !editors.has(cn))) throw new AppError('FORBIDDEN', messages.noPermission);
    },
    run: async ({ tx }, host, editable) => {
      for (const cn of group) await addHostAccount(tx, host.id, cn);
      await setSharedGroupFlags(
        tx,
        host.id,
        editable.filter((cn) => !group.includes(cn)),
        false,
      );
      await setSharedGroupFlags(tx, host.id, group, group.length > 1);
    },
  });
}

/** Spec 002 §4 save flow step 1: the host's shared-server group is emptied (of the accounts the user may edit). */
export async function deactivateSharedGroup(
  ctx: AppContext,
  principal: Principal,
  request: HostWriteRequest,
) {
  await writeHost(ctx, principal, request, {
    operation: 'sharedserver/deactivate',
    fields: hostFields(request),
    run: ({ tx }, host, editable) => setSharedGroupFlags(tx, host.id, editable, false),
  });
}

/**
 * Decision 048: the host's Borrowable setting saved on its own (a change without seat changes). It goes into every
 * account's file, so a host with an account the user may not edit is refused (403), never changed for some only.
 * Each account on the host gets a 'changed' entry; setting the value it already has writes nothing.
 */
export async function setHostSettings(
  ctx: AppContext,
  principal: Principal,
  request: HostWriteRequest & { ansysborrowable: boolean },
) {
  await writeHost(ctx, principal, request, {
    operation: 'servers/settings',
    fields: { ...hostFields(request), ansysborrowable: request.ansysborrowable },
    run: async ({ tx, audit }, host, editable) => {
      const members = (await listHostAccounts(tx, host.id)).map((m) => m.customerNumber).sort();
      if (members.some((cn) => !editable.includes(cn)))
        throw new AppError('FORBIDDEN', messages.noPermission);
      if (host.borrowable === request.ansysborrowable) return;
      await updateHost(tx, host.id, { borrowable: request.ansysborrowable });
      const changed = { ...host, borrowable: request.ansysborrowable };
      for (const customerNumber of members)
        audit.push({
          customerNumber,
          action: 'license-servers.changed',
          object: hostObject(changed),
          before: hostSettings(host),
          after: hostSettings(changed),
        });
    },
  });
}

/**
 * Spec 002 §4 "Delete: permanently removes an inactive host": the account leaves the host; the host and its
 * history go with its last account. An active host is refused ('Host {name} ({identifier}) is active.').
 */
export async function removeHost(ctx: AppContext, principal: Principal, request: HostWriteRequest) {
  await writeHost(ctx, principal, request, {
    operation: 'sharedserver/remove',
    fields: hostFields(request),
    run: async ({ tx }, host) => {
      if (host.state === 'Active')
        throw new AppError('CONFLICT', hostIdMessages.active(host.name, host.hostIdentity));
      await removeHostAccount(tx, host.id, request.customerNumber);
    },
  });
}

/**
 * Spec 002 §7 /api/uploadserverid: the host read from an uploaded file (a license file, lmhostid output or
 * "name id type" lines) by the one parser the verifier uses; 400 naming the line that does not read.
 */
export async function readUploadedHost(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  text: string,
) {
  await authorizeAccount(ctx, principal, customerNumber, 'activations');
  const parsed = parseHostUpload(text);
  if (!parsed.ok) throw badRequest(parsed.err);
  return parsed.data;
}
