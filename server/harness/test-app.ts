import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { loadConfig } from '../src/platform/config.ts';

/** The real app on a test database, for `app.inject` (no socket) or `app.listen` when a test needs HTTP. */
export async function createTestApp(
  database: Database,
  env: Record<string, string> = {},
): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: os.tmpdir(),
    SEED_ON_EMPTY: 'false',
    // Tests run jobs themselves, at the moments they choose.
    JOBS_ENABLED: 'false',
    WEB_DIST: '/nonexistent',
    // Tests close their app at once, whatever connections the HTTP client keeps.
    SHUTDOWN_GRACE_MS: '0',
    ...env,
  });
  return buildApp(config, database);
}
