import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, queryRows } from '../db/database.ts';
import type { Config } from './config.ts';

/*
 * Prometheus metrics (issue 22 §2, decision 055). Each app has its own registry, so several apps in one process
 * (the API tests) count apart; the Node process metrics have one registry per process, since the process is one.
 * Labels are bounded: an operation is the contract's operation id or the route's pattern, never the raw URL.
 */

/** How long a scrape waits for the database-backed gauges; past it they are left out and the scrape answers. */
export const METRICS_DATABASE_DEADLINE_MS = 1000;

let processRegistry: Registry | undefined;

/** Node's own metrics (CPU, memory, event loop, GC), collected once per process whatever the number of apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Usage lag: a license server reports every few minutes; a backlog of hours or days is what matters. */
const lagBuckets = [1, 10, 60, 300, 900, 3600, 4 * 3600, 86_400, 7 * 86_400];

export type AppMetrics = ReturnType<typeof createMetrics>;

export function createMetrics(database: Database) {
  const registry = new Registry();
  const registers = [registry];
  // Gauges read from the database at each scrape, in a registry of their own: left out when the read fails.
  const fromDatabase = new Registry();
  const outbox = {
    pending: new Gauge({
      name: 'lp_outbox_pending_messages',
      help: 'E-mails in the outbox waiting for delivery (the whole database: every node reports the same)',
      registers: [fromDatabase],
    }),
    oldest: new Gauge({
      name: 'lp_outbox_oldest_pending_seconds',
      help: 'Age of the oldest e-mail still waiting for delivery (0 when none waits)',
      registers: [fromDatabase],
    }),
    retrying: new Gauge({
      name: 'lp_outbox_retrying_messages',
      help: 'Waiting e-mails whose delivery failed at least once and will be tried again',
      registers: [fromDatabase],
    }),
    failed: new Gauge({
      name: 'lp_outbox_failed_messages',
      help: 'E-mails whose delivery was given up after MAIL_MAX_ATTEMPTS (kept in the outbox)',
      registers: [fromDatabase],
    }),
  };
  const databaseRead = new Gauge({
    name: 'lp_metrics_database_read_ok',
    help: `1 when this scrape read the database-backed gauges (outbox) within ${METRICS_DATABASE_DEADLINE_MS} ms, else 0 and they are left out`,
    registers,
  });

  const poolStats = database.poolStats;
  if (poolStats) {
    type PoolStats = ReturnType<NonNullable<Database['poolStats']>>;
    const poolGauge = (name: string, help: string, read: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(poolStats()));
        },
      });
    poolGauge('lp_db_pool_connections', 'PostgreSQL connections open in the pool', (s) => s.total);
    poolGauge('lp_db_pool_idle_connections', 'Open pool connections not in use', (s) => s.idle);
    poolGauge(
      'lp_db_pool_waiting_requests',
      'Queries and transactions waiting for a pool connection',
      (s) => s.waiting,
    );
    poolGauge('lp_db_pool_max_connections', 'The pool size (DATABASE_POOL_MAX)', (s) => s.max);
  }

  /** Reads the database-backed gauges within the deadline; false when the database did not answer in time. */
  async function readDatabaseGauges(): Promise<boolean> {
    const read = queryRows<{ pending: number; retrying: number; failed: number; oldest: number | null }>(
      database.db,
      sql`select count(*) filter (where delivery_status = 'pending')::int as pending,
              count(*) filter (where delivery_status = 'pending' and attempts > 0)::int as retrying,
              count(*) filter (where delivery_status = 'failed')::int as failed,
              extract(epoch from now() - min(date) filter (where delivery_status = 'pending'))::float8 as oldest
            from emails where delivery_status in ('pending', 'failed')`,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), METRICS_DATABASE_DEADLINE_MS);
    });
    const row = await Promise.race([read.then((rows) => rows[0]), late])
      .catch(() => undefined)
      .finally(() => clearTimeout(timer));
    read.catch(() => {});
    databaseRead.set(row ? 1 : 0);
    if (!row) return false;
    outbox.pending.set(Number(row.pending));
    outbox.retrying.set(Number(row.retrying));
    outbox.failed.set(Number(row.failed));
    outbox.oldest.set(Number(row.oldest ?? 0));
    return true;
  }

  return {
    registry,
    requests: new Counter({
      name: 'lp_http_requests_total',
      help: 'HTTP requests answered, by operation (contract operation id or route pattern), method and status',
      labelNames: ['operation', 'method', 'status'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: 'lp_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by operation, method and status',
      labelNames: ['operation', 'method', 'status'] as const,
      buckets: secondsBuckets,
      registers,
    }),
    jobRuns: new Counter({
      name: 'lp_job_runs_total',
      help: 'Database job runs this node did, by job and outcome (succeeded, failed)',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: 'lp_job_run_duration_seconds',
      help: 'Duration of the job runs this node did, by job',
      labelNames: ['job'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers,
    }),
    usageEvents: new Counter({
      name: 'lp_usage_events_total',
      help: 'Usage events license servers posted to /cls/v1/usage, by outcome (accepted, rejected)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    usageLag: new Histogram({
      name: 'lp_usage_ingest_lag_seconds',
      help: 'Accepted usage events: time from the event (its time field) to its ingest',
      buckets: lagBuckets,
      registers,
    }),
    usageVisible: new Histogram({
      name: 'lp_usage_visible_seconds',
      help: 'Usage batches: time from their receipt at /cls/v1/usage until the usage pages can show them (the commit; with a read replica, its replay, to within one poll)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    }),
    replicaReads: new Counter({
      name: 'lp_replica_reads_total',
      help: 'Reads that may lag (usage grids and exports, statements, web transactions and reports), by the server that answered (replica, primary)',
      labelNames: ['target'] as const,
      registers,
    }),
    /** Set from the read router at each scrape (issue 25 §2): -1 while no replica answers. */
    replicaLag: new Gauge({
      name: 'lp_replica_lag_seconds',
      help: 'How far the read replica is behind the primary, as this node last saw it; -1 when it is down (only with DATABASE_REPLICA_URL)',
      registers,
    }),
    replicaUsed: new Gauge({
      name: 'lp_replica_in_use',
      help: '1 when reads that may lag go to the replica (it answers within REPLICA_MAX_LAG_SECONDS), else 0',
      registers,
    }),
    licenseFiles: new Counter({
      name: 'lp_license_files_generated_total',
      help: 'Signed license files generated (one per account and host, each time one is shown, downloaded or e-mailed)',
      registers,
    }),
    /** The exposition: the process's metrics, this app's, and the database's when they could be read in time. */
    async exposition(): Promise<string> {
      const read = await readDatabaseGauges();
      return (
        (await processMetrics().metrics()) +
        (await registry.metrics()) +
        (read ? await fromDatabase.metrics() : '')
      );
    },
  };
}

/**
 * The bounded name of what a request asked for: the contract's operation id, else the route's pattern (the
 * OpenID provider's `/oidc/*`), `static` for the web app's files, `webApp` for its page on a client-side route
 * and `notFound` for anything else.
 */
export function operationOf(request: FastifyRequest): string {
  const { config, url } = request.routeOptions;
  if (config?.operationId) return config.operationId;
  if ((config as { file?: unknown } | undefined)?.file !== undefined) return 'static';
  if (url) return url;
  return request.servedWebApp ? 'webApp' : 'notFound';
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). */
function tokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

const envelope = (err: string, code: string) => JSON.stringify({ status: 'FAILURE', err, code });

/** A request to the metrics listener: GET/HEAD /metrics (with the token when one is set), else 404. */
async function serveMetricsListener(
  metrics: AppMetrics,
  token: string | undefined,
  request: http.IncomingMessage,
  response: http.ServerResponse,
) {
  const path = (request.url ?? '').split('?')[0];
  const answer = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  const json = 'application/json; charset=utf-8';
  if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD'))
    return answer(404, json, envelope(messages.notFound, 'NOT_FOUND'));
  if (token && !tokenMatches(request.headers.authorization, token))
    return answer(401, json, envelope(messages.notSignedIn, 'UNAUTHENTICATED'), {
      'www-authenticate': 'Bearer',
    });
  try {
    answer(200, metrics.registry.contentType, await metrics.exposition());
  } catch {
    answer(500, json, envelope(messages.internal, 'INTERNAL'));
  }
}

const listeners = new WeakMap<FastifyInstance, http.Server>();

/** The address of the app's METRICS_LISTEN server once it listens (tests ask for port 0). */
export function metricsListenerAddress(app: FastifyInstance): AddressInfo | undefined {
  const address = listeners.get(app)?.address();
  return address && typeof address === 'object' ? address : undefined;
}

/** `host:port` → parts; an IPv6 host may be bracketed. */
function splitHostPort(value: string): { host: string; port: number } {
  const at = value.lastIndexOf(':');
  return { host: value.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(at + 1)) };
}

/**
 * Counts every answer by operation and status, names the operation in the request's log lines, and serves
 * `/metrics`: on the app's own port behind METRICS_TOKEN, or only on METRICS_LISTEN's address; with neither set
 * it is not served at all (decision 055).
 */
export function installMetrics(app: FastifyInstance, config: Config, metrics: AppMetrics): void {
  app.addHook('onRequest', async (request) => {
    const { operationId } = request.routeOptions.config ?? {};
    // pino's child loggers take bindings in place: the completed-request line carries the operation too.
    if (operationId)
      (request.log as { setBindings?: (b: object) => void }).setBindings?.({ operation: operationId });
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      operation: operationOf(request),
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
  });

  const token = config.METRICS_TOKEN;
  if (config.METRICS_LISTEN) {
    const server = http.createServer((request, response) => {
      void serveMetricsListener(metrics, token, request, response);
    });
    listeners.set(app, server);
    const { host, port } = splitHostPort(config.METRICS_LISTEN);
    // onReady, not onListen: listen() waits for it, so the address is taken (or the start fails) before it resolves.
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      app.log.info({ address: metricsListenerAddress(app) }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    });
    return;
  }
  if (!token) return;
  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!tokenMatches(request.headers.authorization, token))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ status: 'FAILURE', err: messages.notSignedIn, code: 'UNAUTHENTICATED' });
    const text = await metrics.exposition();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
