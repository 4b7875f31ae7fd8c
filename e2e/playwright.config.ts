import { defineConfig, devices } from '@playwright/test';
import type { ServerOptions } from './tests/fixtures.ts';

/**
 * The files whose server is not the default one (tests/fixtures.ts), one project per kind of server. With one
 * worker Playwright runs a project's files one after another on one server, and starts another worker (a server
 * and a browser) only when the next file needs another kind. Run in file-name order, the six files below made
 * eleven server starts of about 7 s each; grouped, five.
 */
const serverKinds: { name: string; files: string[]; use: Partial<ServerOptions> }[] = [
  // The daily jobs run at the server's start (the audit checkpoint, the notices). These files share one server in
  // this order (file names): audit-log reads the log the start wrote, layout-shift the notices panel before
  // notices.spec changes the user's choices.
  { name: 'jobs', files: ['audit-log', 'layout-shift', 'notices'], use: { jobs: true } },
  // The jobs, and delivery to a real SMTP server the test reads.
  { name: 'jobs-smtp', files: ['notice-mail'], use: { jobs: true, smtp: true } },
  { name: 'smtp', files: ['activations'], use: { smtp: true } },
  // Signs in through an outside OpenID provider; its accounts are the file's own `test.use`.
  { name: 'external-idp', files: ['external-sign-in'], use: {} },
];
const specFile = (name: string) => new RegExp(`/${name}\\.spec\\.ts$`);

export default defineConfig<ServerOptions>({
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
  projects: [
    { name: 'default', testIgnore: serverKinds.flatMap((k) => k.files.map(specFile)) },
    ...serverKinds.map((k) => ({ name: k.name, testMatch: k.files.map(specFile), use: k.use })),
  ],
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
