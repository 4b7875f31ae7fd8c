import { FSA_MANUAL_PART } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import type { WorldContext } from './context.ts';
import type { EntitlementRow, ServerRow } from './types.ts';

/** An account's license servers and, per server id, the net count activated per entitlement id. */
export interface LicenseServersOfAccount {
  servers: ServerRow[];
  net: Map<number, Map<number, number>>;
}

/**
 * License servers of one account and their fulfillment history: activations grouped a few seconds apart (one
 * history group), later partial returns, and a deactivated host that returned everything.
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
  const available = new Map(activatable.map((e) => [e.id, e.quantity]));
  const net = new Map<number, Map<number, number>>();
  const fulfil = (server: ServerRow, e: EntitlementRow, count: number, time: Date, who: string) => {
    ctx.rows.fulfillments.push({
      id: ctx.rows.fulfillments.length + 1,
      serverId: server.id,
      entitlementId: e.id,
      count,
      action: count > 0 ? 'ACTIVATE' : 'RETURN',
      time,
      modifiedBy: who,
    });
    available.set(e.id, available.get(e.id)! - count);
    const perServer = net.get(server.id) ?? new Map<number, number>();
    perServer.set(e.id, (perServer.get(e.id) ?? 0) + count);
    net.set(server.id, perServer);
  };
  const licenseServersOfAccount: ServerRow[] = [];
  for (const sp of plan.servers) {
    const shared = sp.shareKey ? sharedHosts.get(sp.shareKey) : undefined;
    const id =
      shared?.hostId ??
      (sp.triad ? [hostId(sp.type), hostId(sp.type), hostId(sp.type)].join(',') : hostId(sp.type));
    if (sp.shareKey && !shared) sharedHosts.set(sp.shareKey, { hostId: id });
    const server: ServerRow = {
      id: ctx.rows.licenseServers.length + 1,
      customerNumber: cn,
      name: sp.name,
      hostId: id,
      hostIdType: sp.triad ? [sp.type, sp.type, sp.type].join(',') : sp.type,
      kind: sp.triad ? 'triad' : 'single',
      alias: null,
      state: sp.inactive ? 'INACTIVE' : 'ACTIVE',
    };
    ctx.rows.licenseServers.push(server);
    licenseServersOfAccount.push(server);
    // First group: several entitlements activated within a few seconds (one history group of spec 002).
    const t0 = -rng.int(20, 330);
    let t = at(t0, workTime()).getTime();
    const who = rng.pick(people);
    const first = rng
      .shuffle(activatable.filter((e) => daysFromToday(e.startDate) <= t0 && available.get(e.id)! > 0))
      .slice(0, rng.int(2, 6));
    for (const e of first) {
      fulfil(server, e, rng.int(1, available.get(e.id)!), new Date(t), who);
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
      const more = activatable.find((e) => !first.includes(e) && available.get(e.id)! > 0);
      if (more && daysFromToday(more.startDate) <= t0)
        fulfil(server, more, rng.int(1, available.get(more.id)!), new Date(t2), who2);
    }
  }
  return { servers: licenseServersOfAccount, net };
}
