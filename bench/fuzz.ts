/**
 * The request fuzz at scale (decision 020): FUZZ_REQUESTS (default 20 000) random and malformed requests against
 * the real app on PGlite; prints the tally by status and fails when any answer is a 5xx or outside the envelope.
 * Run: npm run fuzz
 */
import { buildFuzzWorld, runFuzz } from '@lp/server/harness/fuzz-requests';
import { createTestApp } from '@lp/server/harness/test-app';
import { openBenchDatabase } from './bench-database.ts';

const count = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const { database, cleanup } = await openBenchDatabase('pglite', 1);
const app = await createTestApp(database);
try {
  const world = await buildFuzzWorld(database.db);
  const started = performance.now();
  const tally = await runFuzz(app, world, count);
  const seconds = (performance.now() - started) / 1000;
  const fiveXx = Object.entries(tally.byStatus)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
  console.log(
    JSON.stringify({
      requests: tally.requests,
      byStatus: tally.byStatus,
      fiveXx,
      seconds: Math.round(seconds),
    }),
  );
  for (const f of tally.failures.slice(0, 20)) console.log(JSON.stringify(f).slice(0, 500));
  if (tally.failures.length) process.exitCode = 1;
} finally {
  await app.close();
  await cleanup();
}
