import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  chargeCents,
  type Drawable,
  drawOrder,
  rateTableFor,
  sessionHours,
} from './elastic-rating.ts';

const H = 3_600_000;
const ent = (id: number, startDate: string, endDate: string, quantity: number, used = 0): Drawable => ({
  id,
  licenseModel: 'Elastic-AEU',
  state: 'Deployed',
  startDate,
  endDate,
  quantityCents: quantity * 100,
  usedCents: used * 100,
  rateTableVersion: `v${id}`,
});

describe('sessionHours', () => {
  it('rounds finished sessions to 0.01 h with a 0.01 h floor', () => {
    expect(sessionHours(0, 90 * 60_000, 0)).toBe(1.5);
    expect(sessionHours(0, 1000, 0)).toBe(0.01);
    expect(sessionHours(0, 0, 0)).toBe(0.01);
  });
  it('lets active sessions accrue to the last time seen, without the floor', () => {
    expect(sessionHours(0, null, 0)).toBe(0);
    expect(sessionHours(0, null, 2 * H)).toBe(2);
  });
});

describe('chargeCents', () => {
  it('is rate × count × hours in hundredths, rounded', () => {
    expect(chargeCents(2, 3, 1.5)).toBe(900);
    expect(chargeCents(0.25, 1, 0.01)).toBe(0);
    expect(chargeCents(0.8, 1, 1.15)).toBe(92);
  });
});

describe('drawOrder and allocate', () => {
  it('orders valid entitlements by earliest expiry', () => {
    const list = [ent(1, '2026-01-01', '2026-12-31', 10), ent(2, '2026-01-01', '2026-06-30', 10)];
    expect(drawOrder(list, '2026-03-01').map((e) => e.id)).toEqual([2, 1]);
    expect(drawOrder(list, '2026-07-01').map((e) => e.id)).toEqual([1]);
    expect(drawOrder(list, '2025-12-31')).toEqual([]);
  });
  it('ignores entitlements that are not Deployed Elastic-AEU', () => {
    expect(drawOrder([{ ...ent(1, '2026-01-01', '2026-12-31', 1), state: 'Expired' }], '2026-02-01')).toEqual(
      [],
    );
  });
  it('moves what one cannot pay to the next and records the rest as overage', () => {
    const list = [ent(1, '2026-01-01', '2026-12-31', 10), ent(2, '2026-01-01', '2026-06-30', 5, 4)];
    expect(allocate(list, '2026-03-01', 1500)).toEqual({
      draws: [
        { entitlementId: 2, cents: 100 },
        { entitlementId: 1, cents: 1000 },
      ],
      overageCents: 400,
    });
    expect(list.map((e) => e.usedCents)).toEqual([1000, 500]);
  });
  it('never overdraws and never loses a cent (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: fc.nat(1000), u: fc.nat(1000), end: fc.integer({ min: 1, max: 28 }) }), {
          maxLength: 5,
        }),
        fc.array(fc.nat(100_000), { maxLength: 20 }),
        (specs, charges) => {
          const list = specs.map((s, i) =>
            ent(i + 1, '2026-01-01', `2026-02-${String(s.end).padStart(2, '0')}`, s.q, Math.min(s.u, s.q)),
          );
          const before = list.reduce((a, e) => a + e.usedCents, 0);
          let overage = 0;
          for (const c of charges) overage += allocate(list, '2026-01-15', c).overageCents;
          const after = list.reduce((a, e) => a + e.usedCents, 0);
          expect(after - before + overage).toBe(charges.reduce((a, c) => a + c, 0));
          for (const e of list) expect(e.usedCents).toBeLessThanOrEqual(e.quantityCents);
        },
      ),
    );
  });
});

describe('rateTableFor', () => {
  it('uses the first payer, else the latest entitlement, else the newest version', () => {
    const list = [ent(1, '2026-01-01', '2026-12-31', 10), ent(2, '2026-01-01', '2026-06-30', 10)];
    expect(rateTableFor(list, '2026-03-01', 'new')).toBe('v2');
    expect(rateTableFor(list, '2027-03-01', 'new')).toBe('v1');
    expect(rateTableFor([], '2027-03-01', 'new')).toBe('new');
  });
});
