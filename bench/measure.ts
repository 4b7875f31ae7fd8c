/** The timing helpers the benches share: spreads, turn-taking against a baseline, and the results table. */

export const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
export const int = (v: number) => Math.round(v).toLocaleString('en-US');

export interface Spread {
  p50: number;
  p95: number;
  n: number;
}

export function spread(samples: number[]): Spread {
  const s = samples.toSorted((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p95: at(0.95), n: s.length };
}

/**
 * `subject` and `base` timed in turns, the one going first swapped every round so that both meet the same cache,
 * GC and scheduler; the first `warmup` rounds are dropped.
 */
export async function inTurns(
  rounds: number,
  warmup: number,
  subject: (i: number) => unknown,
  base: (i: number) => unknown,
): Promise<{ subject: Spread; base: Spread }> {
  const times: [number[], number[]] = [[], []];
  const runs = [subject, base];
  for (let i = 0; i < warmup + rounds; i++) {
    for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      await runs[side](i);
      if (i >= warmup) times[side].push(performance.now() - started);
    }
  }
  return { subject: spread(times[0]), base: spread(times[1]) };
}

/** The Markdown rows a bench prints at the end (and docs/benchmarks.md quotes). */
export const table: string[] = [];

/** One Markdown row: what, p50/p95 (or a rate), the baseline, the ratio, the target and whether it held. */
export function row(
  what: string,
  value: string,
  baseline: string,
  ratio: string,
  target = '',
  held?: boolean,
) {
  const verdict = held === undefined ? '' : held ? 'met' : '**missed**';
  table.push(`| ${what} | ${value} | ${baseline} | ${ratio} | ${target} | ${verdict} |`);
  console.log(`  ${what}: ${value} | ${baseline} | ratio ${ratio} ${verdict}`);
}

export const pair = (a: Spread) => `${fmt(a.p50)} / ${fmt(a.p95)}`;
export const ratios = (a: Spread, b: Spread) =>
  `${(a.p50 / b.p50).toFixed(2)} / ${(a.p95 / b.p95).toFixed(2)}`;
