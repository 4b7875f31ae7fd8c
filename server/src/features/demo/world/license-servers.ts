import { type HostIdType, hostIdentifier } from '@lp/domain/host-ids';
import { FSA_MANUAL_PART } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import type { WorldContext } from './context.ts';
import type { EntitlementRow, FulfillmentRow, ServerRow } from './types.ts';

/** An account's license servers and, per server id, the net count activated per entitlement id. */
export interface LicenseServersOfAccount {
  servers: ServerRow[];
  net: Map<number, Map<number, number>>;
}

/**
 * License servers of one account and their fulfillment history: activations grouped a few seconds apart (one
 * history group), later partial returns, and a deactivated host that returned everything. A shared host (same
 * `shareKey` in several plans) is one row serving each of those accounts.
 */
export function addLicenseServers(
  ctx: WorldContext,
  { cn, plan, people }: AccountScope,
  entitlements: EntitlementRow[],
): LicenseServersOfAccount {
  const { rng, at, workTime, hostId, daysFromToday, sharedHosts } = ctx;
  const activatable = entitlements.filter(
    (e) =>
      e.partNumber !== FSA_MANUAL_PART &&
      daysFromToday(e.startDate) < -7 &&
      (e.endDate === null || daysFromToday(e.endDate!) > 0),
  );
  const net = new Map<number, Map<number, number>>();
  const live = new Map<string, FulfillmentRow>();
  const fulfil = (server: ServerRow, e: EntitlementRow, count: number, time: Date, who: string) => {
    const key = `${server.id}:${e.id}`;
    let row = live.get(key);
    if (!row) {
      row = {
        id: ctx.rows.fulfillments.length + 1,
        serverId: server.id,
        entitlementId: e.id,
        customerNumber: cn,
        count: 0,
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
      serverId: server.id,
      customerNumber: cn,
      time,
      modifiedBy: who,
      action: count > 0 ? 'ACTIVATE' : 'RETURN',
      count,
      lifecycleAction: count > 0 ? 'new' : 'return',
    });
    const perServer = net.get(server.id) ?? new Map<number, number>();
    perServer.set(e.id, (perServer.get(e.id) ?? 0) + count);
    net.set(server.id, perServer);
  };
  const available = (e: EntitlementRow) => e.quantity - (e.activated ?? 0);
  const licenseServersOfAccount: ServerRow[] = [];
  for (const sp of plan.servers) {
    const shared = sp.shareKey ? sharedHosts.get(sp.shareKey) : undefined;
    let server = shared;
    if (!server) {
      const ids = sp.triad ? [hostId(sp.type), hostId(sp.type), hostId(sp.type)] : [hostId(sp.type)];
      const types: HostIdType[] = ids.map(() => sp.type);
      const names = sp.triad ? [sp.name, `${sp.name}b`, `${sp.name}c`] : [sp.name];
      server = {
        id: ctx.rows.licenseServers.length + 1,
        kind: 'flexlm',
        hostIdentity: hostIdentifier({ ids, types }),
        hostIds: ids.join(','),
        hostIdTypes: types.join(','),
        name: sp.name,
        serverNames: names.join(','),
        alias: null,
        state: 'Unknown',
      };
      ctx.rows.licenseServers.push(server);
      if (sp.shareKey) sharedHosts.set(sp.shareKey, server);
    }
    ctx.rows.licenseServerAccounts.push({
      serverId: server.id,
      customerNumber: cn,
      inSharedGroup: Boolean(shared),
    });
    // The first account of a shared host joins the group once a second one arrives.
    if (shared)
      for (const m of ctx.rows.licenseServerAccounts) if (m.serverId === server.id) m.inSharedGroup = true;
    licenseServersOfAccount.push(server);
    // First group: several entitlements activated within a few seconds (one history group of spec 002).
    const t0 = -rng.int(20, 330);
    let t = at(t0, workTime()).getTime();
    if (!shared) server.createdAt = new Date(t - 60_000);
    const membership = ctx.rows.licenseServerAccounts.at(-1)!;
    membership.addedAt = new Date(t - 30_000);
    const who = rng.pick(people);
    const first = rng
      .shuffle(activatable.filter((e) => daysFromToday(e.startDate) <= t0 && available(e) > 0))
      .slice(0, rng.int(2, 6));
    for (const e of first) {
      fulfil(server, e, rng.int(1, available(e)), new Date(t), who);
      t += rng.int(1, 4) * 1000;
    }
    if (first.length === 0) continue;
    if (sp.inactive) {
      // Deactivated host: everything returned in one later group.
      let t2 = at(t0 + rng.int(5, -t0 - 1), workTime()).getTime();
      for (const [eid, n] of net.get(server.id)!) {
        if (n > 0) {
          fulfil(server, ctx.rows.entitlements[eid - 1], -n, new Date(t2), 'Automated Action');
          t2 += 2000;
        }
      }
    } else if (rng.chance(0.7) && -t0 > 3) {
      // A later change: part of one activation returned, another product added.
      let t2 = at(t0 + rng.int(2, -t0 - 1), workTime()).getTime();
      const who2 = rng.pick(people);
      const back = first[0];
      const n = net.get(server.id)!.get(back.id)!;
      if (n > 1) {
        fulfil(server, back, -rng.int(1, n - 1), new Date(t2), who2);
        t2 += 3000;
      }
      const more = activatable.find((e) => !first.includes(e) && available(e) > 0);
      if (more && daysFromToday(more.startDate) <= t0)
        fulfil(server, more, rng.int(1, available(more)), new Date(t2), who2);
    }
  }
  // A host is Active while anything is activated on it, Inactive once everything was returned.
  for (const server of licenseServersOfAccount) {
    const counts = ctx.rows.fulfillments.filter((f) => f.serverId === server.id);
    if (counts.length) server.state = counts.some((f) => f.count > 0) ? 'Active' : 'Inactive';
  }
  return { servers: licenseServersOfAccount, net };
}
