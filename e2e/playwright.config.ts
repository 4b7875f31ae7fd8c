import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  // Migrates and seeds one database that every server of the run copies (start-server.mjs).
  globalSetup: './global-setup.mjs',
  // Generous: on a loaded 2-core machine a sign-in alone can take over a minute. Tests wait on explicit signals,
  // so a longer limit only slows a real failure down.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // Each worker runs against its own server and database (tests/fixtures.ts); the tests of one file run in
  // order. One worker by default: on 2 cores two workers took longer than one (28.8 against 21.8 min). One worker
  // leaves about a third of the two cores idle, so `npm test` runs the API layers beside this one
  // (scripts/test.mjs). E2E_WORKERS=N runs N files side by side on a bigger machine.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: './test-results',
  use: {
    // A failed test keeps a screenshot of its end. Its trace (DOM snapshots, network, console) is recorded when
    // E2E_TRACE=1 asks for it: recording it for every test made the layer a sixth slower (transactions and
    // leases: 100.6 s against 83.2 s, decision 069), every test paying for the few that fail. The trace's
    // filmstrip stays off: its screencast cost about a fifth of the layer's CPU (decision 070).
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false, snapshots: true } : 'off',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    // The app honours reduced motion (no Mantine transitions): the tests do not wait out animations.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
