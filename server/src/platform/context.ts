import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/database.ts';
import type { ReadRouter } from '../db/replica.ts';
import type { Config } from './config.ts';
import type { AppMetrics } from './metrics.ts';

/** What every feature's service needs, built once per process and passed down explicitly. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** HMAC key shared by every API node (stored in the database) for cursors and other signed values. */
  secret: Buffer;
  log: FastifyBaseLogger;
  /** This app's Prometheus metrics (decision 055); absent where no app runs (the CLI). */
  metrics?: AppMetrics;
  /** With DATABASE_REPLICA_URL: where reads that may lag go (platform/read-routing.ts). */
  replica?: ReadRouter;
}
