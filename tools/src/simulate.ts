import type { PolicyResponse, UsageBatchResponse, UsageEventInput } from '@lp/contract/cls/schemas';
import { CommandError } from './errors.ts';

export interface SimulateOptions {
  url: string;
  token: string;
  /** sessions started per minute while running live */
  rate: number;
  /** seconds to run live (0: backfill only) */
  duration: number;
  /** days of finished history to send first */
  backfillDays: number;
  /** seconds between heartbeats of active sessions */
  heartbeat: number;
  /** leave sessions still running when the time is up (otherwise they end) */
  leaveActive: boolean;
  seed: number;
}

/** A small deterministic PRNG (mulberry32) so a seed reproduces a run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
  };
}

const USERS = [
  'jdoe',
  'asmith',
  'mchen',
  'rpatel',
  'lgarcia',
  'kmuller',
  'tnguyen',
  'oberg',
  'fsilva',
  'ykim',
];
const PROJECTS = ['wing-redesign', 'pump-housing', 'battery-pack', 'turbine-blade', 'antenna-array', ''];
const VERSIONS = ['2025 R1', '2025 R2', '2024 R2'];

interface Live {
  descriptor: Omit<UsageEventInput, 'type' | 'time'>;
  endsAt: number;
}

/**
 * Drives the license-server API like a real elastic license server: reads its policy (priced products,
 * allowed usernames), optionally backfills finished sessions, then starts sessions at the given rate, sends
 * heartbeats and ends them (a few long ones keep running).
 */
export class UsageSimulator {
  private readonly random;
  private readonly live = new Map<string, Live>();
  private counter = 0;
  sent = 0;
  rejected = 0;

  private readonly options: SimulateOptions;
  private readonly log: (line: string) => void;
  private readonly fetchImpl: typeof fetch;

  constructor(options: SimulateOptions, log: (line: string) => void, fetchImpl: typeof fetch = fetch) {
    this.options = options;
    this.log = log;
    this.fetchImpl = fetchImpl;
    this.random = prng(options.seed);
  }

  private async call<T>(path: string, init?: RequestInit): Promise<T> {
    const res = await this.fetchImpl(new URL(path, this.options.url), {
      ...init,
      headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
    });
    const body = (await res.json().catch(() => ({}))) as { err?: string };
    if (!res.ok) throw new CommandError(`${path}: HTTP ${res.status} ${body.err ?? ''}`.trim());
    return body as T;
  }

  async policy(): Promise<PolicyResponse> {
    const policy = await this.call<PolicyResponse>('/cls/v1/policy');
    if (policy.products.length === 0)
      throw new CommandError('The server has no priced products to simulate.');
    return policy;
  }

  /** A new session descriptor from the policy's products and users. */
  describe(policy: PolicyResponse, start: Date): Omit<UsageEventInput, 'type' | 'time'> {
    const r = this.random;
    const hpc = r.next() < 0.15;
    this.counter += 1;
    const user = policy.users.length ? r.pick(policy.users) : r.pick(USERS);
    return {
      sessionId: `sim-${this.options.seed}-${start.getTime().toString(36)}-${this.counter}`,
      startTime: start.toISOString(),
      product: r.pick(policy.products),
      productCount: hpc ? r.pick([8, 16, 32]) : r.pick([1, 1, 1, 2, 4]),
      user,
      host: hpc ? `hpc-node${String(r.int(1, 16)).padStart(2, '0')}` : `ws-${user}`,
      project: r.pick(PROJECTS),
      productVersion: r.pick(VERSIONS),
      ip: `203.0.113.${r.int(1, 254)}`,
    };
  }

  async send(events: UsageEventInput[]): Promise<void> {
    for (let i = 0; i < events.length; i += 1000) {
      const batch = events.slice(i, i + 1000);
      const result = await this.call<UsageBatchResponse>('/cls/v1/usage', {
        method: 'POST',
        body: JSON.stringify({ events: batch }),
      });
      this.sent += result.accepted;
      this.rejected += result.rejected.length;
      for (const r of result.rejected.slice(0, 3)) this.log(`rejected event ${i + r.index}: ${r.reason}`);
    }
  }

  /** Finished sessions over the last `days` days, office hours mostly, sent in batches. */
  async backfill(policy: PolicyResponse, days: number, now: Date): Promise<number> {
    const r = this.random;
    const events: UsageEventInput[] = [];
    let sessions = 0;
    for (let d = days; d >= 1; d--) {
      const perDay = r.int(5, 15);
      for (let k = 0; k < perDay; k++) {
        const start = new Date(
          now.getTime() - d * 86_400_000 + r.int(7, 18) * 3_600_000 + r.int(0, 3599) * 1000,
        );
        const minutes = Math.round(-Math.log(1 - r.next()) * 120) + 1;
        const end = new Date(Math.min(start.getTime() + minutes * 60_000, now.getTime()));
        const descriptor = this.describe(policy, start);
        events.push(
          { ...descriptor, type: 'start', time: descriptor.startTime },
          { ...descriptor, type: 'end', time: end.toISOString() },
        );
        sessions += 1;
      }
    }
    await this.send(events);
    return sessions;
  }

  /** One tick of live simulation at `now`: start due sessions, end finished ones, heartbeat the rest. */
  async tick(policy: PolicyResponse, now: Date, starts: number, final: boolean): Promise<void> {
    const events: UsageEventInput[] = [];
    for (let k = 0; k < starts; k++) {
      const descriptor = this.describe(policy, now);
      // Most sessions last seconds to minutes of wall time here; one in ten runs until the end of the run.
      const long = this.random.next() < 0.1;
      this.live.set(descriptor.sessionId, {
        descriptor,
        endsAt: long ? Number.POSITIVE_INFINITY : now.getTime() + this.random.int(5, 120) * 1000,
      });
      events.push({ ...descriptor, type: 'start', time: now.toISOString() });
    }
    for (const [id, session] of this.live) {
      const ending = session.endsAt <= now.getTime() || (final && !this.options.leaveActive);
      events.push({ ...session.descriptor, type: ending ? 'end' : 'heartbeat', time: now.toISOString() });
      if (ending) this.live.delete(id);
    }
    if (events.length) await this.send(events);
  }

  async run(): Promise<{ sent: number; rejected: number; active: number }> {
    const policy = await this.policy();
    this.log(
      `Simulating ${policy.alias || policy.clsId}: ${policy.products.length} products, rate table ${policy.rateTableVersion}`,
    );
    if (this.options.backfillDays > 0) {
      const n = await this.backfill(policy, this.options.backfillDays, new Date());
      this.log(`Backfilled ${n} finished sessions over ${this.options.backfillDays} days`);
    }
    const tickMs = this.options.heartbeat * 1000;
    const started = Date.now();
    let due = 0;
    while (Date.now() - started < this.options.duration * 1000) {
      due += (this.options.rate / 60) * this.options.heartbeat;
      const starts = Math.floor(due);
      due -= starts;
      await this.tick(policy, new Date(), starts, false);
      await new Promise((resolve) => setTimeout(resolve, tickMs));
    }
    if (this.options.duration > 0) await this.tick(policy, new Date(), 0, true);
    return { sent: this.sent, rejected: this.rejected, active: this.live.size };
  }
}
