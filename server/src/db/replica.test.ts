import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLsn, replicaLag } from './replica.ts';

describe('WAL positions', () => {
  it('reads PostgreSQL positions and orders them as the server does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('0/3016038') > parseLsn('0/3000000')).toBe(true);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    for (const bad of ['', '0', '0/', '/1', 'x/1', '0/123456789', '1/2/3'])
      expect(() => parseLsn(bad)).toThrow();
  });

  it('round-trips every position', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), (hi, lo) => {
        const text = `${hi.toString(16).toUpperCase()}/${lo.toString(16).toUpperCase()}`;
        expect(parseLsn(text)).toBe((BigInt(hi) << 32n) | BigInt(lo));
      }),
    );
  });
});

describe('replica lag', () => {
  const samples = [
    { at: 1_000, lsn: 100n },
    { at: 2_000, lsn: 150n },
    { at: 3_000, lsn: 150n },
    { at: 4_000, lsn: 300n },
  ];

  it('is nothing once the newest position is replayed, however idle the primary', () => {
    expect(replicaLag(samples, 300n, 60_000)).toBe(0);
    expect(replicaLag(samples, 999n, 4_000)).toBe(0);
  });

  it('is the age of the oldest position not replayed yet', () => {
    expect(replicaLag(samples, 99n, 5_000)).toBe(4);
    expect(replicaLag(samples, 100n, 5_000)).toBe(3);
    expect(replicaLag(samples, 299n, 5_000)).toBe(1);
  });

  it('never decreases as the replica falls further behind, and never exceeds the oldest sample', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 20 }),
        fc.nat({ max: 1200 }),
        fc.nat({ max: 1200 }),
        (steps, a, b) => {
          const s: { at: number; lsn: bigint }[] = [];
          for (const [i, step] of steps.entries())
            s.push({ at: i * 1000, lsn: (s.at(-1)?.lsn ?? 0n) + BigInt(step) });
          const now = steps.length * 1000;
          const [less, more] = a <= b ? [BigInt(a), BigInt(b)] : [BigInt(b), BigInt(a)];
          expect(replicaLag(s, less, now)).toBeGreaterThanOrEqual(replicaLag(s, more, now));
          expect(replicaLag(s, less, now)).toBeLessThanOrEqual(now / 1000);
        },
      ),
    );
  });
});
