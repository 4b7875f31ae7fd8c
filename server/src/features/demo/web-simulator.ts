import type { WebPool } from '@lp/contract/web-seats/schemas';
import type { WebCheckoutResult } from '@lp/contract/web-sessions/schemas';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import { ensureMonthPartitions } from '../../db/partitions.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { webGroupsOf, webUsersOf } from '../web-directory/service.ts';
import { webPoolOf } from '../web-seats/service.ts';
import {
  checkout,
  heartbeat,
  listWebCredentials,
  release,
  type WebProduct,
  webSessionsSweepJob,
} from '../web-sessions/service.ts';
import { Rng } from './prng.ts';

/**
 * The web-session simulator (issue 24 §2, `web-simulate` and the demo world's history): people of an account's
 * directory sign in to the web products through the working day, go idle, close their browsers and are refused
 * when pools are full, on a simulated clock. Every checkout, heartbeat and release goes through web-sessions'
 * service at its simulated instant, and the sweep job runs at the first minute after each deadline it would find,
 * so the leases and denials are exactly what the product API would have recorded.
 */

export interface WebSimulationOptions {
  customerNumber: string;
  /** Days of history: from midnight UTC `days` days before `until`'s day up to `until`. */
  days: number;
  /** The end of the simulated time (sessions still running then stay open). */
  until: Date;
  seed: number;
  /**
   * Seconds between a session's heartbeats (default: what the checkout answers, a third of the window); at most a
   * minute less than the pool's heartbeat window and idle timeout, so a working session never lapses.
   */
  heartbeatSeconds?: number;
  /** Only the credentials of this product (default: every active one covering a pool of the account). */
  product?: string;
  /** The share of the directory signing in on a working day, on average (default 0.55; each person varies). */
  attendance?: number;
  /** At least this many sessions open at `until`: people not signed in then start one (the late shift). */
  openAtEnd?: number;
}

export interface WebSimulationResult {
  pools: number;
  people: number;
  checkouts: number;
  granted: number;
  heartbeats: number;
  denied: Record<string, number>;
  ended: Record<string, number>;
  open: number;
}

/** Why the simulation cannot run (the CLI answers it as the command's error). */
export class WebSimulationError extends Error {}

type Ending = 'release' | 'idle' | 'lost';

interface Person {
  id: string;
  email: string;
  state: string;
  /** Hours added to UTC for the person's working day (offices in three regions). */
  zone: number;
  /** Chance of working on a weekday. */
  attendance: number;
  /** An invited person's first sign-in (which makes them active); none before it. */
  joins: number;
  /** Pools the person works with (named pools they hold a seat of, shared pools of their groups or picked). */
  uses: string[];
}

interface Lease {
  leaseId: string;
  partNumber: string;
  product: WebProduct;
  /** Active until then; afterwards the session ends as `ending` says. */
  activeUntil: number;
  ending: Ending;
  every: number;
  person: Person;
}

type Event =
  | { kind: 'start'; person: Person; partNumber: string; minutes: number; ending: Ending; attempt: number }
  | { kind: 'beat'; lease: Lease }
  | { kind: 'release'; lease: Lease }
  | { kind: 'sweep' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A min-heap of timed events; equal instants in the order they were scheduled, so a seed replays exactly. */
class Timeline {
  private readonly heap: { at: number; seq: number; event: Event }[] = [];
  private seq = 0;
  push(at: number, event: Event) {
    const h = this.heap;
    h.push({ at, seq: this.seq++, event });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.before(p, i)) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }
  pop() {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && !this.before(m, l)) m = l;
        if (r < h.length && !this.before(m, r)) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
  private before(a: number, b: number) {
    const x = this.heap[a];
    const y = this.heap[b];
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }
}

/** A session's heartbeat interval in ms: as asked, kept a minute inside the pool's window and idle timeout. */
const heartbeatEvery = (seconds: number, pool: WebPool) =>
  Math.max(
    10,
    Math.min(seconds, pool.policy.heartbeatWindowSeconds - 60, pool.policy.idleTimeoutSeconds - 60),
  ) * 1000;

/** The credentials that serve the account's pools: per part number, the oldest active credential covering it. */
async function poolsServed(db: Db, customerNumber: string, onlyProduct: string | undefined) {
  const credentials = (await listWebCredentials(db)).filter(
    (c) => c.revokedAt === null && (onlyProduct === undefined || c.product === onlyProduct),
  );
  const pools = new Map<string, { pool: WebPool; product: WebProduct }>();
  for (const c of credentials)
    for (const partNumber of [...c.partNumbers].sort()) {
      if (pools.has(partNumber)) continue;
      const pool = await webPoolOf(db, customerNumber, partNumber);
      if (pool)
        pools.set(partNumber, {
          pool,
          product: { credentialId: c.id, product: c.product, partNumbers: c.partNumbers },
        });
    }
  return pools;
}

/** Runs the simulation; the leases are written as it goes (run it in a transaction for all or nothing). */
export async function simulateWebSessions(
  db: Db,
  options: WebSimulationOptions,
): Promise<WebSimulationResult> {
  const { customerNumber, until } = options;
  // The web-sessions service reads only the database of its context.
  const ctx = { db } as AppContext;
  const rng = new Rng(options.seed);
  const served = await poolsServed(db, customerNumber, options.product);
  if (served.size === 0)
    throw new WebSimulationError(
      `No active web credential covers a web seat pool of account ${customerNumber}${options.product ? ` for product "${options.product}"` : ''}: issue one with "web-credentials issue".`,
    );
  const parts = [...served.keys()];
  const named = parts.filter((p) => served.get(p)!.pool.kind === 'named');
  const shared = parts.filter((p) => served.get(p)!.pool.kind === 'shared');

  const groupTerms = new Map(
    (await webGroupsOf(db, customerNumber)).map((g) => [g.id, g.sharedTerms.map((t) => t.partNumber)]),
  );
  const end = until.getTime();
  const firstDay =
    Date.UTC(until.getUTCFullYear(), until.getUTCMonth(), until.getUTCDate()) - options.days * DAY;
  // The simulated months get their partitions first, as the product's own months do ahead (decision 073).
  await ensureMonthPartitions(db, 'web_leases', new Date(firstDay), until);
  const directory = (await webUsersOf(db, customerNumber))
    .filter((u) => u.state !== 'removed')
    .sort((a, b) => a.email.localeCompare(b.email));
  const people: Person[] = directory.map((u) => {
    const seats = u.seats.map((s) => s.partNumber).filter((p) => named.includes(p));
    const viaGroup = shared.filter((p) => u.groups.some((g) => groupTerms.get(g.id)?.includes(p)));
    const picked = shared.length && (viaGroup.length === 0 || rng.chance(0.3)) ? [rng.pick(shared)] : [];
    const uses = [...new Set([...seats, ...viaGroup, ...picked])];
    return {
      id: u.id,
      email: u.email,
      state: u.state,
      zone: rng.weighted([
        [-5, 3],
        [1, 5],
        [8, 2],
      ] as const),
      // Suspended people still try now and then (and are refused).
      attendance:
        u.state === 'suspended'
          ? 0.1
          : Math.min(0.95, (options.attendance ?? 0.55) * (0.6 + rng.float() * 0.8)),
      uses: uses.length ? uses : [rng.pick(parts)],
      // Invited people accept on some day, a few of them not yet.
      joins: u.state === 'invited' ? firstDay + rng.int(0, Math.round(options.days * 1.4)) * DAY : 0,
    };
  });

  const result: WebSimulationResult = {
    pools: served.size,
    people: people.length,
    checkouts: 0,
    granted: 0,
    heartbeats: 0,
    denied: {},
    ended: {},
    open: 0,
  };
  const timeline = new Timeline();

  // Each person's working days: sign-ins from the morning, sessions of minutes to hours, breaks between them.
  for (let day = firstDay; day <= end; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    for (const person of people) {
      if (!rng.chance(weekend ? 0.04 : person.attendance) || day < person.joins) continue;
      let at = day - person.zone * HOUR + 7 * HOUR + rng.int(0, 180) * MINUTE;
      const closing = day - person.zone * HOUR + 18 * HOUR;
      const sessions = rng.weighted([
        [1, 6],
        [2, 3],
        [3, 1],
      ] as const);
      for (let k = sessions; k > 0 && at < closing; k--) {
        // Now and then someone opens a named product they hold no seat of.
        const stray = named.length > 0 && rng.chance(0.05);
        const partNumber = stray ? rng.pick(named) : rng.pick(person.uses);
        const minutes = Math.min(10 + Math.round(-Math.log(1 - rng.float()) * 120), 360);
        const ending = rng.weighted([
          ['release', 65],
          ['idle', 20],
          ['lost', 15],
        ] as const);
        if (at < end) timeline.push(at, { kind: 'start', person, partNumber, minutes, ending, attempt: 0 });
        at += (minutes + rng.int(10, 90)) * MINUTE;
      }
    }
  }

  const sweeps = new Set<number>();
  /** The sweep job's run at the first whole minute after `deadline` (once per minute, as the job runs). */
  const sweepAfter = (deadline: number) => {
    const minute = Math.floor(deadline / MINUTE) * MINUTE + MINUTE;
    if (sweeps.has(minute) || minute > end) return;
    sweeps.add(minute);
    timeline.push(minute, { kind: 'sweep' });
  };
  const open = new Map<string, { lease: Lease; lastBeat: number; lastActive: number }>();

  const begin = async (at: number, event: Extract<Event, { kind: 'start' }>) => {
    const { person, partNumber } = event;
    const { product } = served.get(partNumber)!;
    result.checkouts += 1;
    const answer: WebCheckoutResult = await checkout(
      ctx,
      product,
      { customerNumber, email: person.email, partNumber, client: `web ${person.email.split('@')[0]}` },
      new Date(at),
    );
    if (!answer.granted) {
      result.denied[answer.reason] = (result.denied[answer.reason] ?? 0) + 1;
      // Refused for want of a seat, people try again a little later (twice at most); other refusals stand.
      const retry = ['pool-full', 'group-cap', 'session-limit'].includes(answer.reason) && event.attempt < 2;
      if (retry)
        timeline.push(at + rng.int(10, 40) * MINUTE, {
          ...event,
          minutes: Math.max(10, event.minutes - 30),
          attempt: event.attempt + 1,
        });
      return;
    }
    result.granted += 1;
    const lease: Lease = {
      leaseId: answer.leaseId,
      partNumber,
      product,
      activeUntil: at + event.minutes * MINUTE,
      ending: event.ending,
      every: heartbeatEvery(
        options.heartbeatSeconds ?? answer.heartbeatSeconds,
        served.get(partNumber)!.pool,
      ),
      person,
    };
    open.set(lease.leaseId, { lease, lastBeat: at, lastActive: at });
    next(at, lease);
  };

  /** The session's next step after `at`: a heartbeat, its release, or nothing more (closed, or left idle). */
  const next = (at: number, lease: Lease) => {
    const state = open.get(lease.leaseId)!;
    const policy = served.get(lease.partNumber)!.pool.policy;
    const beat = at + lease.every;
    if (lease.ending === 'release' && beat >= lease.activeUntil) {
      timeline.push(lease.activeUntil, { kind: 'release', lease });
    } else if (lease.ending === 'lost' && beat >= lease.activeUntil) {
      // The browser closed: no more heartbeats; the sweep ends the lease after the window.
      sweepAfter(state.lastBeat + policy.heartbeatWindowSeconds * 1000);
    } else {
      if (lease.ending === 'idle' && beat > lease.activeUntil)
        sweepAfter(state.lastActive + policy.idleTimeoutSeconds * 1000);
      timeline.push(beat, { kind: 'beat', lease });
    }
  };

  const beat = async (at: number, lease: Lease) => {
    const state = open.get(lease.leaseId);
    if (!state) return;
    const active = at <= lease.activeUntil;
    result.heartbeats += 1;
    try {
      await heartbeat(ctx, lease.product, { leaseId: lease.leaseId, active }, new Date(at));
    } catch (e) {
      // 410: the lease ended (the sweep, or this late heartbeat): the product stops.
      if (e instanceof AppError && e.code === 'GONE') return void open.delete(lease.leaseId);
      throw e;
    }
    state.lastBeat = at;
    if (active) state.lastActive = at;
    next(at, lease);
  };

  for (let item = timeline.pop(); item && item.at <= end; item = timeline.pop()) {
    const { at, event } = item;
    if (event.kind === 'start') await begin(at, event);
    else if (event.kind === 'beat') await beat(at, event.lease);
    else if (event.kind === 'release') {
      await release(ctx, event.lease.product, { leaseId: event.lease.leaseId }, new Date(at));
      open.delete(event.lease.leaseId);
    } else await webSessionsSweepJob.run(ctx, new Date(at).toISOString().slice(0, 16), new Date(at));
  }
  await webSessionsSweepJob.run(ctx, until.toISOString().slice(0, 16), until);

  // The late shift: people with no open session sign in now until enough sessions are open.
  const summary = await leaseSummary(db, customerNumber, firstDay);
  let openNow = summary.open;
  for (const person of people) {
    if (openNow >= (options.openAtEnd ?? 0)) break;
    if (person.state === 'suspended' || person.joins > end || summary.openPeople.has(person.id)) continue;
    const answer = await checkout(
      ctx,
      served.get(person.uses[0])!.product,
      {
        customerNumber,
        email: person.email,
        partNumber: person.uses[0],
        client: `web ${person.email.split('@')[0]}`,
      },
      until,
    );
    result.checkouts += 1;
    if (answer.granted) {
      result.granted += 1;
      openNow += 1;
    } else result.denied[answer.reason] = (result.denied[answer.reason] ?? 0) + 1;
  }
  const final = await leaseSummary(db, customerNumber, firstDay);
  return { ...result, ended: final.ended, open: final.open };
}

/** The account's leases since `from`: how they ended, and who holds the open ones. */
async function leaseSummary(db: Db, customerNumber: string, from: number) {
  const rows = await queryRows<{ outcome: string; n: number; people: string[] }>(
    db,
    sql`select outcome, count(*)::int as n, array_agg(distinct user_id::text) as people from web_leases
      where customer_number = ${customerNumber} and started_at >= ${new Date(from).toISOString()}
        and outcome <> 'denied'
      group by outcome order by outcome`,
  );
  const ended: Record<string, number> = {};
  for (const r of rows) if (r.outcome !== 'open') ended[r.outcome] = Number(r.n);
  const open = rows.find((r) => r.outcome === 'open');
  return { ended, open: Number(open?.n ?? 0), openPeople: new Set(open?.people ?? []) };
}
