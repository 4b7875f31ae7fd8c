import { createHash } from 'node:crypto';
import { FSA_MANUAL_DRAWDOWN_PART, isBorrowable, licenseModelGroupOf } from '@lp/domain/entitlements';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect, it } from 'vitest';
import { mulberry32, Rng } from '../prng.ts';
import { buildWorld, utcToday } from './build-world.ts';
import { HISTORY_DAYS } from './license-servers.ts';
import { customerUsers } from './users.ts';

const TODAY = '2026-03-15';

/** A person (not the system) did it: an e-mail address. */
const persons = (modifiedBy: string) => modifiedBy.includes('@');

/** A short digest of each part of a world, so a change names the part that moved. */
function digest(world: ReturnType<typeof buildWorld>): Record<string, string> {
  const hash = (value: unknown) =>
    createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
  return Object.fromEntries(Object.entries(world).map(([part, value]) => [part, hash(value)]));
}

describe('demo world generator', () => {
  it('mulberry32 gives the same stream for the same seed and a different one otherwise', () => {
    const take = (seed: number) => {
      const next = mulberry32(seed);
      return Array.from({ length: 5 }, next);
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    expect(take(42).every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Rng(7).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('is a pure function of seed and day', () => {
    expect(buildWorld(42, TODAY)).toEqual(buildWorld(42, TODAY));
    const other = buildWorld(43, TODAY);
    expect(other.accounts.map((a) => a.name)).not.toEqual(buildWorld(42, TODAY).accounts.map((a) => a.name));
    // Another day shifts dates but keeps the same shape.
    const later = buildWorld(42, '2026-03-16');
    expect(later.entitlements.length).toBe(buildWorld(42, TODAY).entitlements.length);
    expect(later.entitlements[0].startDate).not.toBe(buildWorld(42, TODAY).entitlements[0].startDate);
  });

  it('builds exactly the recorded world of seed 42', () => {
    // First recorded from the single-file generator (world.ts, before issue 9): a refactoring that changes
    // the order of random draws or any row fails here, part by part. Change a digest only with an intended
    // change of the world, and say which here and in the commit. Issue 11: a designed triad's servers are named
    // each ('lic-a1', 'lic-a2', 'lic-a3'), not all three as the first server's name (licenseServers, emails).
    expect(digest(buildWorld(42, TODAY))).toEqual({
      today: 'd66a031c59cf3999',
      users: '406a11d2b4622015',
      // Changed on purpose in issue 10 §7: lease lines draw a license model of the spec's model groups (was
      // 'Lease'/'Perpetual'); random plans draw rehosted hosts; the fulfillment history spans two years with
      // change groups, deactivations and rehosts (fulfillments carry parentId, events their lifecycle action
      // and parent). These draws move the one random stream for every account after the first.
      accounts: 'a3b82a1172ee25c9',
      contacts: 'fcdc29be7926de5a',
      products: '6b2918e684d56c18',
      // Issue 12: FSA contracts carry a busops e-mail list (was 7959f54a044e9440). Issue 24 §2: the web demo
      // account gains a Named User and a Shared Web line, appended last (was 8ebbdf73e2967ed0).
      entitlements: '9c1bf0a3ab90114e',
      fsaPrices: '6e487c9a142dc43b',
      licenseServers: '4045c0d556c0f29c',
      licenseServerAccounts: '209d4220f5e987fe',
      fulfillments: 'e3ee2099dd56edf1',
      fulfillmentEvents: '152fffb7dc445bcd',
      emails: 'a409eb6f846693b1',
      alerts: 'da44c1a1a75b9344',
      // Changed once on purpose: the route features left the world for the product (decision 025), so only
      // the two experiments remain here (was 7446b48319060d88); the seeded features table is unchanged.
      features: '03c06af833a8d5fb',
      // Issue 23 §2: a session account names its elastic license server elasticServerId (was serverId); the
      // values are the same (with the old key the digest is the old 4e823097d23366fb).
      sessionPlan: '5fe4cc88ebba60a4',
      rateTables: '2c67e8a0a0756052',
    });
  });

  it('rejects a malformed anchor day', () => {
    expect(() => buildWorld(42, '15.03.2026')).toThrow(/YYYY-MM-DD/);
    expect(utcToday(new Date('2026-03-15T23:59:59Z'))).toBe('2026-03-15');
  });

  it('keeps ids unique and references consistent', () => {
    const w = buildWorld(42, TODAY);
    const unique = (xs: unknown[]) => new Set(xs).size === xs.length;
    expect(unique(w.accounts.map((a) => a.customerNumber))).toBe(true);
    expect(unique(w.entitlements.map((e) => e.activationId))).toBe(true);
    expect(unique(w.entitlements.map((e) => e.id))).toBe(true);
    expect(unique(w.contacts.map((c) => `${c.customerNumber}/${c.email}`))).toBe(true);
    const parts = new Set(w.products.map((p) => p.partNumber));
    expect(w.entitlements.every((e) => parts.has(e.partNumber!))).toBe(true);
    const numbers = w.accounts.map((a) => Number(a.customerNumber));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(w.accounts).toHaveLength(50);
    expect(w.products.length).toBeGreaterThanOrEqual(30);
  });

  it('gives every customer user but one some accounts, with the portal contact role strings', () => {
    const w = buildWorld(42, TODAY);
    const roles = new Set<string>(Object.values(contactRoles));
    expect(w.contacts.every((c) => roles.has(c.role))).toBe(true);
    const accountsOf = (email: string) => w.contacts.filter((c) => c.email === email);
    expect(accountsOf('admin@acme.example').length).toBeGreaterThanOrEqual(3);
    expect(accountsOf('admin@northwind.example')).toHaveLength(1);
    expect(accountsOf('engineer@acme.example').map((c) => c.role)).toEqual([contactRoles.viewer]);
    expect(accountsOf('coordinator@acme.example').every((c) => c.role === contactRoles.coordinator)).toBe(
      true,
    );
    expect(accountsOf('newhire@acme.example')).toHaveLength(0);
    expect(customerUsers.filter((u) => accountsOf(u.email).length === 0).map((u) => u.email)).toEqual([
      'newhire@acme.example',
    ]);
  });

  it('gives leases and perpetuals license models of the spec model groups, by product', () => {
    const w = buildWorld(42, TODAY);
    const productName = new Map(w.products.map((p) => [p.partNumber, p.name]));
    const ssl = w.entitlements.filter((e) => e.kind === 'SSL' && !e.fsaContractId);
    const groupOf = (e: (typeof ssl)[number]) =>
      licenseModelGroupOf(e.licenseModel, productName.get(e.partNumber!) ?? '');
    for (const e of ssl) {
      const name = productName.get(e.partNumber!)!;
      const expected = name.includes('(Node)')
        ? 'Node Locked'
        : e.licenseType === 'shared'
          ? 'Shared Web'
          : e.licenseType === 'named'
            ? 'Named User'
            : 'Network';
      expect([e.activationId, groupOf(e)]).toEqual([e.activationId, expected]);
    }
    const models = new Set(ssl.map((e) => e.licenseModel));
    for (const m of [
      'Network',
      'Network Borrow',
      'Shared Web',
      'ConcurrentProduct',
      'Named User',
      'Node Locked',
    ])
      expect(models).toContain(m);
    // A fair share of the floating lines is borrowable.
    const network = ssl.filter((e) => groupOf(e) === 'Network');
    const borrowable = network.filter((e) => isBorrowable(e.licenseModel)).length;
    expect(borrowable / network.length).toBeGreaterThan(0.15);
    expect(borrowable / network.length).toBeLessThan(0.5);
    // FSA contracts and their order lines keep their models.
    expect(new Set(w.entitlements.filter((e) => e.kind === 'FSA').map((e) => e.licenseModel))).toEqual(
      new Set(['FSA']),
    );
    expect(new Set(w.entitlements.filter((e) => e.fsaContractId).map((e) => e.licenseModel))).toEqual(
      new Set(['Lease']),
    );
  });

  it.each([42, 7, 24])(
    'keeps two years of fulfillment history consistent with the rules of the activations service (seed %i)',
    (seed) => {
      const w = buildWorld(seed, TODAY);
      const anchor = Date.parse(`${TODAY}T00:00:00Z`);
      const dayOf = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - anchor) / 86_400_000);
      const dayOfTime = (t: Date) => Math.floor((t.getTime() - anchor) / 86_400_000);
      const productName = new Map(w.products.map((p) => [p.partNumber, p.name]));
      const entitlement = new Map(w.entitlements.map((e) => [e.id, e]));
      const server = new Map(w.licenseServers.map((s) => [s.id, s]));
      const fulfillment = new Map(w.fulfillments.map((f) => [f.id, f]));
      const groupOf = (eid: number) => {
        const e = entitlement.get(eid)!;
        return licenseModelGroupOf(e.licenseModel, productName.get(e.partNumber!) ?? '');
      };
      const events = [...w.fulfillmentEvents].sort((a, b) => a.time.getTime() - b.time.getTime());

      // An entitlement's activated count is the sum of its live fulfillments on all hosts, within 0..quantity,
      // and so is the running sum of its history at every moment.
      const liveOf = new Map<number, number>();
      for (const f of w.fulfillments)
        liveOf.set(f.entitlementId, (liveOf.get(f.entitlementId) ?? 0) + f.count);
      for (const e of w.entitlements) {
        expect([e.activationId, e.activated ?? 0]).toEqual([e.activationId, liveOf.get(e.id) ?? 0]);
        expect(e.activated ?? 0).toBeGreaterThanOrEqual(0);
        expect(e.activated ?? 0).toBeLessThanOrEqual(e.quantity);
      }
      const running = new Map<number, number>();
      const runningCount = new Map<number, number>();
      for (const ev of events) {
        const f = fulfillment.get(ev.fulfillmentId)!;
        const e = entitlement.get(f.entitlementId)!;
        const n = (running.get(e.id) ?? 0) + ev.count;
        running.set(e.id, n);
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBeLessThanOrEqual(e.quantity);
        const c = (runningCount.get(f.id) ?? 0) + ev.count;
        runningCount.set(f.id, c);
        expect(c).toBeGreaterThanOrEqual(0);
      }
      // A fulfillment's count is the sum of its events.
      for (const f of w.fulfillments) expect([f.id, f.count]).toEqual([f.id, runningCount.get(f.id) ?? 0]);

      const activatedParts = new Set(w.fulfillments.map((f) => entitlement.get(f.entitlementId)!.partNumber));
      expect(activatedParts.has(FSA_MANUAL_DRAWDOWN_PART)).toBe(false);
      // Shared Web and Named User counts show as activated: they are never activated on a host.
      expect(new Set(w.fulfillments.map((f) => groupOf(f.entitlementId)))).toEqual(
        new Set(['Network', 'Node Locked']),
      );
      for (const f of w.fulfillments)
        if (groupOf(f.entitlementId) === 'Node Locked')
          expect(server.get(f.serverId)!.hostIds).not.toContain(',');

      const addedAt = new Map(
        w.licenseServerAccounts.map((m) => [`${m.serverId}/${m.customerNumber}`, m.addedAt!]),
      );
      for (const ev of events) {
        const f = fulfillment.get(ev.fulfillmentId)!;
        const e = entitlement.get(f.entitlementId)!;
        const host = server.get(ev.serverId)!;
        const day = dayOfTime(ev.time);
        expect(ev.serverId).toBe(f.serverId);
        expect(ev.customerNumber).toBe(f.customerNumber);
        expect(host.kind).toBe('flexlm');
        // Never before the entitlement started, the host was added or the account joined it; never today.
        expect(day).toBeGreaterThanOrEqual(dayOf(e.startDate));
        expect(ev.time.getTime()).toBeGreaterThan(host.createdAt!.getTime());
        expect(ev.time.getTime()).toBeGreaterThan(
          addedAt.get(`${ev.serverId}/${ev.customerNumber}`)!.getTime(),
        );
        expect(day).toBeLessThan(0);
        expect(ev.action).toBe(ev.count > 0 ? 'ACTIVATE' : 'RETURN');
        expect(ev.count).not.toBe(0);
        const maintenanceEnd = e.endDate == null && e.versionDate ? dayOf(e.versionDate) : null;
        // Activations only until the end (a perpetual's maintenance end); a perpetual's seats are frozen once
        // its maintenance ended.
        if (ev.count > 0)
          expect(day).toBeLessThanOrEqual(e.endDate ? dayOf(e.endDate) : (maintenanceEnd ?? 0));
        if (maintenanceEnd !== null) expect(day).toBeLessThanOrEqual(maintenanceEnd);
        expect(ev.count > 0 ? ['new', 'rehost'] : ['return', 'deactivate', 'rehost']).toContain(
          ev.lifecycleAction,
        );
      }
      expect(new Set(events.map((e) => e.lifecycleAction))).toEqual(
        new Set(['new', 'return', 'deactivate', 'rehost']),
      );

      // A host is Active iff something is live on it, Inactive once everything was returned, Unknown when unused.
      for (const s of w.licenseServers.filter((x) => x.kind === 'flexlm')) {
        const lines = w.fulfillments.filter((f) => f.serverId === s.id);
        const state = lines.length === 0 ? 'Unknown' : lines.some((f) => f.count > 0) ? 'Active' : 'Inactive';
        expect([s.name, s.state]).toEqual([s.name, state]);
      }
      expect(w.licenseServers.filter((s) => s.state === 'Inactive').length).toBeGreaterThan(3);

      // Rehosts: the target's fulfillment continues the source's (same entitlement and account, another host),
      // created with the count the source returned in the rehost, after that return; the source is Inactive.
      const children = w.fulfillments.filter((f) => f.parentId !== null);
      expect(children.length).toBeGreaterThan(3);
      for (const child of children) {
        const parent = fulfillment.get(child.parentId!)!;
        expect(parent.entitlementId).toBe(child.entitlementId);
        expect(parent.customerNumber).toBe(child.customerNumber);
        expect(parent.serverId).not.toBe(child.serverId);
        expect(server.get(parent.serverId)!.state).toBe('Inactive');
        const created = events.find((e) => e.fulfillmentId === child.id)!;
        const returned = events.filter(
          (e) => e.fulfillmentId === parent.id && e.lifecycleAction === 'rehost',
        );
        expect(returned).toHaveLength(1);
        expect(created).toMatchObject({
          action: 'ACTIVATE',
          lifecycleAction: 'rehost',
          parentFulfillmentId: parent.id,
          count: -returned[0].count,
          modifiedBy: returned[0].modifiedBy,
        });
        expect(created.time.getTime()).toBeGreaterThan(returned[0].time.getTime());
        expect(persons(returned[0].modifiedBy)).toBe(true);
      }
      expect(
        events.filter((e) => e.parentFulfillmentId !== null).every((e) => e.lifecycleAction === 'rehost'),
      ).toBe(true);

      // About two years of history, with several change groups on many hosts.
      expect(dayOfTime(events[0].time)).toBeGreaterThanOrEqual(-HISTORY_DAYS);
      expect(dayOfTime(events[0].time)).toBeLessThan(-600);
      const daysPerHost = new Map<string, Set<number>>();
      for (const ev of events) {
        const key = `${ev.serverId}/${ev.customerNumber}`;
        daysPerHost.set(key, (daysPerHost.get(key) ?? new Set()).add(dayOfTime(ev.time)));
      }
      expect([...daysPerHost.values()].filter((d) => d.size >= 3).length).toBeGreaterThan(10);
    },
  );

  it('gives the designed ACME account a known case of every host and line the screens show', () => {
    const w = buildWorld(42, TODAY);
    const acme = w.accounts.find((a) => a.name === 'Acme Aerospace Inc.')!.customerNumber;
    const productName = new Map(w.products.map((p) => [p.partNumber, p.name]));
    const lines = w.entitlements.filter((e) => e.customerNumber === acme && e.kind === 'SSL');
    const memberships = w.licenseServerAccounts.filter((m) => m.customerNumber === acme);
    const hosts = memberships.map((m) => w.licenseServers.find((s) => s.id === m.serverId)!);
    const fulfillments = w.fulfillments.filter((f) => f.customerNumber === acme);
    const events = w.fulfillmentEvents.filter((e) => e.customerNumber === acme);
    const groups = lines.map((e) => licenseModelGroupOf(e.licenseModel, productName.get(e.partNumber!)));

    expect(hosts.some((s) => s.kind === 'flexlm' && s.hostIds.split(',').length === 3)).toBe(true);
    const shared = memberships.filter(
      (m) => m.inSharedGroup && w.licenseServerAccounts.filter((x) => x.serverId === m.serverId).length > 1,
    );
    expect(shared.length).toBeGreaterThan(0);
    const rehosted = fulfillments.filter((f) => f.parentId !== null);
    expect(rehosted.length).toBeGreaterThan(0);
    expect(hosts.find((s) => s.id === rehosted[0].serverId)!.state).toBe('Active');
    const deactivated = events.filter((e) => e.lifecycleAction === 'deactivate');
    expect(deactivated.length).toBeGreaterThan(0);
    expect(hosts.find((s) => s.id === deactivated[0].serverId)!.state).toBe('Inactive');
    expect(events.filter((e) => e.lifecycleAction === 'return' && e.count < 0).length).toBeGreaterThan(0);

    expect(lines.some((e) => isBorrowable(e.licenseModel))).toBe(true);
    for (const group of ['Network', 'Node Locked', 'Shared Web', 'Named User'] as const)
      expect(groups).toContain(group);
    // Borrowable and Node Locked lines are activated on its hosts too.
    const activated = lines.filter((e) => (e.activated ?? 0) > 0);
    expect(activated.some((e) => isBorrowable(e.licenseModel))).toBe(true);
    expect(activated.some((e) => e.licenseModel === 'Node Locked')).toBe(true);
    expect(lines.some((e) => e.isEvaluation)).toBe(true);
    expect(lines.some((e) => e.endDate === null && e.versionDate && e.versionDate < TODAY)).toBe(true);
    expect(lines.some((e) => e.startDate > TODAY)).toBe(true);
    expect(lines.some((e) => e.endDate && e.endDate < TODAY)).toBe(true);
  });

  it('stays small and quick to build', () => {
    const started = performance.now();
    const w = buildWorld(42, TODAY);
    expect(performance.now() - started).toBeLessThan(1000);
    // 2 409 rows before the two-year history of issue 10 §7; it may grow by about a fifth at most.
    const rows = Object.values(w).reduce((n, part) => n + (Array.isArray(part) ? part.length : 0), 0);
    expect(rows).toBeLessThanOrEqual(2_900);
  });

  it('plans usage periods that cover the 13 months of history without overlaps', () => {
    const w = buildWorld(42, TODAY);
    for (const account of w.sessionPlan.accounts) {
      const periods = w.sessionPlan.periods
        .filter((p) => p.customerNumber === account.customerNumber)
        .sort((a, b) => b.fromDaysAgo - a.fromDaysAgo);
      expect(periods[0].fromDaysAgo).toBeGreaterThanOrEqual(395);
      expect(periods[periods.length - 1].toDaysAgo).toBeLessThanOrEqual(1);
      for (let i = 1; i < periods.length; i++)
        expect(periods[i].fromDaysAgo).toBe(periods[i - 1].toDaysAgo - 1);
    }
  });
});
