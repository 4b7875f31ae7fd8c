import { describe, expect, it } from 'vitest';
import { type InactiveSeat, inactiveSeatsText, weekStart } from './web-reporting.ts';

describe('weekStart', () => {
  it('answers the Monday of the ISO week (UTC)', () => {
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(weekStart('2026-11-27')).toBe('2026-11-23');
    expect(weekStart('2026-11-29')).toBe('2026-11-23');
    expect(weekStart('2026-11-30')).toBe('2026-11-30');
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });
});

describe('inactiveSeatsText', () => {
  const seat = (n: number): InactiveSeat => ({
    email: `p${n}@acme.example`,
    name: n === 1 ? '' : `P${n}`,
    productName: 'Fluids',
    lastSeen: n === 1 ? null : '2026-10-01',
  });

  it('names one seat in the singular', () => {
    expect(inactiveSeatsText([seat(1)], 30)).toBe(
      '1 named web seat has had no session for 30 days or more: p1@acme.example (Fluids, no session yet). Reclaim them on Web > Reporting.',
    );
  });

  it('names the first ten and counts the rest', () => {
    const text = inactiveSeatsText(
      Array.from({ length: 12 }, (_, i) => seat(i + 1)),
      30,
    );
    expect(text).toMatch(/^12 named web seats have had no session for 30 days or more: /);
    expect(text).toContain('P10 <p10@acme.example> (Fluids, last session 2026-10-01), and 2 more.');
    expect(text).not.toContain('p11@');
  });
});
