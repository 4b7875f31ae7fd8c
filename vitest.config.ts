import { defineConfig } from 'vitest/config';

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
