import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The API files that take longest (10-60 s each on a quiet machine, both engines), started first: by size alone
 * (vitest's order without a cache, as on a fresh clone) fuzz.api came last and ran alone for its 55 s while the
 * other worker had nothing left to do.
 */
const LONGEST_FIRST = [
  'server/src/platform/fuzz.api.test.ts',
  'server/src/platform/idempotency.api.test.ts',
  'tools/src/cli-upgrade.api.test.ts',
  'tools/src/cli-backup.api.test.ts',
  'tools/src/cli.api.test.ts',
  'server/src/compiled-start.api.test.ts',
  'server/src/features/demo/seed.api.test.ts',
  'server/src/start-signals.api.test.ts',
  'server/src/features/featureflags/route-features.api.test.ts',
  'server/src/platform/multipart.api.test.ts',
  'server/src/db/hung-database.api.test.ts',
  'server/src/platform/mail/mailer.api.test.ts',
  'tools/src/web-simulate.api.test.ts',
];

// A renamed or removed file would silently lose its place: say so instead.
for (const file of LONGEST_FIRST)
  if (!fs.existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts: ${file} is gone`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (spec: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array sort is stable: the other files keep vitest's order (by the last run's durations, or by size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const apiFiles = [
  'server/src/**/*.api.test.ts',
  'server/test/**/*.api.test.ts',
  'tools/src/**/*.api.test.ts',
];
const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    // Two cores: one file per core keeps PGlite instances and the PostgreSQL server from starving.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'contract/src/**/*.test.ts',
            'domain/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'tools/src/**/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
          exclude: apiFiles,
          environment: 'node',
          // Files share a worker's module cache (no test mocks modules or globals): imports once per worker.
          isolate: false,
          // Property tests run thousands of cases: 5 s (the default) is too short on a loaded 2-core machine.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web-components',
          // A screen's variants (states, view-only, refusals, messages) rendered in jsdom against a stubbed
          // API, instead of one browser test each (issue 23 §5, decision 066).
          include: ['web/src/**/*.test.tsx'],
          environment: './web/test/jsdom-environment.mjs',
          setupFiles: ['web/test/setup.ts'],
          // The files of a worker share one module graph and one document (isolate: false): 30 s for the layer
          // against 512 s isolated at load 8, most of it imports. web/test/setup.ts gives each test a new tab's
          // address, storage and cookies and cancels the reads of the test before (a whole-portal render's
          // `?account=` had made a later page follow that account; a read still retrying counted as a later
          // test's call). Checked with --sequence.shuffle.files over 15 seeds, one and two workers.
          isolate: false,
          // Times as the browser tests see them (their browser runs in UTC).
          env: { TZ: 'UTC' },
          testTimeout: 60_000,
          // expect.poll waits on a signal as findBy does (web/test/setup.ts): up to 20 s, not the default 1 s.
          expect: { poll: { timeout: 20_000 } },
        },
      },
      ...engines.map((engine) => ({
        test: {
          name: `api-${engine}`,
          include: apiFiles,
          // PostgreSQL's own features (a streaming replica) have no PGlite counterpart.
          exclude: engine === 'pglite' ? ['**/*.postgres.api.test.ts'] : [],
          env: { TEST_ENGINE: engine },
          globalSetup: ['server/test/global-setup.ts'],
          // Each file builds its own database and app, so the server modules are imported once per worker
          // rather than once per file (about 2.5 s each); the layer took 125 s isolated, 75 s shared.
          isolate: false,
          // A file's first test also builds its file-scoped fixtures (database, app, signed-in cast, its world):
          // past 60 s at load 24-27 on PGlite. A limit only slows a real failure down.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      })),
    ],
  },
});
