import { AUTOMATED_ACTION, FSA_MANUAL_DRAWDOWN_PART, licenseModelGroupOf } from '@lp/domain/entitlements';
import { type HostIdType, hostIdentifier } from '@lp/domain/host-ids';
import type { AccountScope } from './accounts.ts';
import type { WorldContext } from './context.ts';
import type { EntitlementRow, FulfillmentEventRow, FulfillmentRow, ServerPlan, ServerRow } from './types.ts';

/** An account's license servers and, per server id, the net count activated per entitlement id. */
export interface LicenseServersOfAccount {
  servers: ServerRow[];
  net: Map<number, Map<number, number>>;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
/** How far back the oldest hosts of the world were added (about two years). */
export const HISTORY_DAYS = 730;

interface Host {
  server: ServerRow;
  triad: boolean;
  /** The day the host is deactivated or rehosted (its lines must still be returnable then); null: it lives on. */
  endDay: number | null;
}

/** One history group of spec 002 (events a few seconds apart on one host), planned before it is played. */
interface Group {
  time: number;
  host: Host;
  kind: 'first' | 'change' | 'deactivate' | 'rehost';
  target?: Host;
}

/**
 * License servers of one account and about two years of fulfillment history. Each host is added on some day
 * with a first group of activations; later groups return part of a line or add products; some hosts are
 * deactivated (everything returned, Inactive) and some rehosted (the source's lines returned with lifecycle
 * 'rehost' and created again on a new target host whose fulfillments name the source's as parent). The groups
 * of all the account's hosts are planned first and then played in time order, so an entitlement's activated
 * count stays within 0..quantity at every moment. The rules of the activations service hold for every event:
 * an activation only between the line's start and its end (a perpetual's maintenance end), no return of a
 * perpetual after its maintenance ended, no Shared Web or Named User line on a host (their count shows as
 * activated), no Node Locked line on a triad, never the FSA manual drawdown product. A shared host (same
 * `shareKey` in several plans) is one row serving each of those accounts.
 */
export function addLicenseServers(
  ctx: WorldContext,
  { cn, plan, people }: AccountScope,
  entitlements: EntitlementRow[],
): LicenseServersOfAccount {
  const { rng, at, workTime, hostId, daysFromToday, sharedHosts, productByPart } = ctx;
  const persons = people.filter((p) => p !== AUTOMATED_ACTION);
  const startOf = (e: EntitlementRow) => daysFromToday(e.startDate);
  /** Last day a line may be activated: its end, a perpetual's maintenance end; never today. */
  const activateUntil = (e: EntitlementRow) =>
    Math.min(
      e.endDate != null ? daysFromToday(e.endDate) : e.versionDate ? daysFromToday(e.versionDate) : 0,
      -1,
    );
  /** Last day a line may be returned: a perpetual's maintenance end; any day for a lease. */
  const returnUntil = (e: EntitlementRow) =>
    e.endDate == null && e.versionDate ? daysFromToday(e.versionDate) : 0;
  const hostable = entitlements.filter((e) => {
    const name = productByPart.get(e.partNumber!)?.name ?? '';
    const group = licenseModelGroupOf(e.licenseModel, name);
    return e.partNumber !== FSA_MANUAL_DRAWDOWN_PART && (group === 'Network' || group === 'Node Locked');
  });
  const nodeLocked = (e: EntitlementRow) =>
    licenseModelGroupOf(e.licenseModel, productByPart.get(e.partNumber!)?.name ?? '') === 'Node Locked';
  const available = (e: EntitlementRow) => e.quantity - (e.activated ?? 0);
  const canActivate = (e: EntitlementRow, host: Host, day: number) =>
    startOf(e) <= day &&
    day <= activateUntil(e) &&
    available(e) > 0 &&
    !(host.triad && nodeLocked(e)) &&
    (host.endDay === null || returnUntil(e) >= host.endDay);

  const live = new Map<string, FulfillmentRow>();
  const fulfil = (
    host: Host,
    e: EntitlementRow,
    count: number,
    time: Date,
    who: string,
    lifecycleAction: FulfillmentEventRow['lifecycleAction'],
    parent: FulfillmentRow | null = null,
  ) => {
    const key = `${host.server.id}:${e.id}`;
    let row = live.get(key);
    if (!row) {
      row = {
        id: ctx.rows.fulfillments.length + 1,
        serverId: host.server.id,
        entitlementId: e.id,
        customerNumber: cn,
        count: 0,
        parentId: parent?.id ?? null,
        createdAt: time,
        updatedAt: time,
      };
      ctx.rows.fulfillments.push(row);
      live.set(key, row);
    }
    row.count += count;
    row.updatedAt = time;
    e.activated = (e.activated ?? 0) + count;
    ctx.rows.fulfillmentEvents.push({
      fulfillmentId: row.id,
      serverId: host.server.id,
      customerNumber: cn,
      time,
      modifiedBy: who,
      action: count > 0 ? 'ACTIVATE' : 'RETURN',
      count,
      lifecycleAction,
      parentFulfillmentId: count > 0 ? (parent?.id ?? null) : null,
    });
    return row;
  };
  const liveLines = (host: Host) =>
    ctx.rows.fulfillments.filter(
      (f) => f.serverId === host.server.id && f.customerNumber === cn && f.count > 0,
    );
  const entitlement = (f: FulfillmentRow) => ctx.rows.entitlements[f.entitlementId - 1];

  // Plan: the hosts of the account and the days of their history groups.
  const newHost = (sp: ServerPlan, name: string): ServerRow => {
    const ids = sp.triad ? [hostId(sp.type), hostId(sp.type), hostId(sp.type)] : [hostId(sp.type)];
    const types: HostIdType[] = ids.map(() => sp.type);
    // A designed triad names its three servers ('lic-a1,lic-a2,lic-a3'); a generated one gets b and c.
    const given = name.split(',');
    const names = sp.triad ? (given.length === 3 ? given : [name, `${name}b`, `${name}c`]) : [name];
    const server: ServerRow = {
      id: ctx.rows.licenseServers.length + 1,
      kind: 'flexlm',
      hostIdentity: hostIdentifier({ ids, types }),
      hostIds: ids.join(','),
      hostIdTypes: types.join(','),
      name: names[0],
      serverNames: names.join(','),
      alias: null,
      state: 'Unknown',
    };
    ctx.rows.licenseServers.push(server);
    return server;
  };
  const join = (server: ServerRow, inSharedGroup: boolean, addedAt: Date) =>
    ctx.rows.licenseServerAccounts.push({ serverId: server.id, customerNumber: cn, inSharedGroup, addedAt });
  /** Up to n distinct days in from..to, in order. */
  const daysBetween = (n: number, from: number, to: number) =>
    from > to ? [] : [...new Set(Array.from({ length: n }, () => rng.int(from, to)))].sort((a, b) => a - b);
  const groups: Group[] = [];
  const licenseServersOfAccount: ServerRow[] = [];
  for (const sp of plan.servers) {
    const shared = sp.shareKey ? sharedHosts.get(sp.shareKey) : undefined;
    // A shared host lives on (its other accounts keep using it).
    const ending = !shared && (sp.inactive || Boolean(sp.rehostTo));
    const server = shared ?? newHost(sp, sp.name);
    if (sp.shareKey && !shared) sharedHosts.set(sp.shareKey, server);
    // A later account of a shared host joins it after the host was added.
    let first: number;
    if (shared) {
      const lo = daysFromToday(shared.createdAt!.toISOString().slice(0, 10)) + 1;
      first = rng.int(lo, Math.max(lo, -5));
    } else first = -rng.int(ending ? 90 : 20, HISTORY_DAYS);
    const endDay = ending ? rng.int(first + 30, -3) : null;
    const host: Host = { server, triad: sp.triad, endDay };
    const firstTime = at(first, workTime()).getTime();
    if (!shared) server.createdAt = new Date(firstTime - MINUTE);
    join(server, Boolean(shared), new Date(firstTime - MINUTE / 2));
    // The first account of a shared host joins the group once a second one arrives.
    if (shared)
      for (const m of ctx.rows.licenseServerAccounts) if (m.serverId === server.id) m.inSharedGroup = true;
    licenseServersOfAccount.push(server);
    groups.push({ time: firstTime, host, kind: 'first' });
    for (const d of daysBetween(rng.int(1, 3), first + 1, (endDay ?? 0) - 1))
      groups.push({ time: at(d, workTime()).getTime(), host, kind: 'change' });
    if (endDay === null) continue;
    const endTime = at(endDay, workTime()).getTime();
    if (sp.inactive) groups.push({ time: endTime, host, kind: 'deactivate' });
    else {
      // The target is added on the screen just before the rehost is saved.
      const target: Host = { server: newHost(sp, sp.rehostTo!), triad: sp.triad, endDay: null };
      target.server.createdAt = new Date(endTime - MINUTE);
      join(target.server, false, new Date(endTime - MINUTE / 2));
      licenseServersOfAccount.push(target.server);
      groups.push({ time: endTime, host, kind: 'rehost', target });
      for (const d of daysBetween(rng.int(0, 2), endDay + 1, -1))
        groups.push({ time: at(d, workTime()).getTime(), host: target, kind: 'change' });
    }
  }

  // Play the groups in time order (a group starts at least a minute after the previous one ended).
  groups.sort((a, b) => a.time - b.time);
  let clock = 0;
  for (const g of groups) {
    let t = Math.max(g.time, clock + MINUTE);
    const day = Math.floor((t - ctx.anchor) / DAY);
    const next = (step: number) => {
      const time = new Date(t);
      t += step;
      return time;
    };
    const { host } = g;
    if (g.kind === 'first') {
      // Several entitlements activated within a few seconds (one history group of spec 002).
      const who = rng.pick(people);
      const first = rng.shuffle(hostable.filter((e) => canActivate(e, host, day))).slice(0, rng.int(2, 5));
      for (const e of first)
        fulfil(host, e, rng.int(1, available(e)), next(rng.int(1, 4) * 1000), who, 'new');
    } else if (g.kind === 'change') {
      // Part of a line returned (sometimes all of it, but never the host's last line), products added.
      const who = rng.pick(people);
      const lines = liveLines(host);
      const returnable = lines.filter((f) => day <= returnUntil(entitlement(f)));
      let changed = false;
      if (returnable.length && rng.chance(0.6)) {
        const f = rng.pick(returnable);
        const n = lines.length > 1 && rng.chance(0.3) ? f.count : f.count > 1 ? rng.int(1, f.count - 1) : 0;
        if (n > 0) {
          fulfil(host, entitlement(f), -n, next(rng.int(2, 3) * 1000), who, 'return');
          changed = true;
        }
      }
      if (!changed || rng.chance(0.6)) {
        const onHost = new Set(lines.map((f) => f.entitlementId));
        const more = rng
          .shuffle(hostable.filter((e) => !onHost.has(e.id) && canActivate(e, host, day)))
          .slice(0, rng.int(1, 2));
        for (const e of more)
          fulfil(host, e, rng.int(1, available(e)), next(rng.int(1, 4) * 1000), who, 'new');
      }
    } else if (g.kind === 'deactivate') {
      // Deactivate: every live line returned in one group, the host becomes Inactive.
      const who = rng.pick(persons);
      for (const f of liveLines(host)) fulfil(host, entitlement(f), -f.count, next(2000), who, 'deactivate');
    } else {
      // Rehost: the source's lines returned, then created with the same counts on the target. A line that
      // can no longer be activated (an expired lease) is only returned, first.
      const who = rng.pick(persons);
      const movable = (e: EntitlementRow) => startOf(e) <= day && day <= activateUntil(e);
      const lines = liveLines(host).map((f) => ({ f, e: entitlement(f), n: f.count }));
      for (const { e, n } of lines.filter((x) => !movable(x.e)))
        fulfil(host, e, -n, next(2000), who, 'return');
      const moved = lines.filter((x) => movable(x.e));
      for (const { e, n } of moved) fulfil(host, e, -n, next(2000), who, 'rehost');
      t += rng.int(5, 20) * 1000;
      for (const { f, e, n } of moved) fulfil(g.target!, e, n, next(2000), who, 'rehost', f);
    }
    clock = t;
  }

  // A host is Active while anything is activated on it, Inactive once everything was returned.
  for (const server of licenseServersOfAccount) {
    const counts = ctx.rows.fulfillments.filter((f) => f.serverId === server.id);
    if (counts.length) server.state = counts.some((f) => f.count > 0) ? 'Active' : 'Inactive';
  }
  const net = new Map<number, Map<number, number>>();
  for (const f of ctx.rows.fulfillments) {
    if (f.customerNumber !== cn) continue;
    const perServer = net.get(f.serverId) ?? new Map<number, number>();
    perServer.set(f.entitlementId, f.count);
    net.set(f.serverId, perServer);
  }
  return { servers: licenseServersOfAccount, net };
}
