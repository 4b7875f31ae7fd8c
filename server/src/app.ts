import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { messages } from '@lp/contract/common/errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Database, openPostgres, timeoutsOf } from './db/database.ts';
import { operationKeysPruneJob } from './db/operation-keys.ts';
import { usagePartitionsJob } from './db/partitions.ts';
import { ReadRouter } from './db/replica.ts';
import { registerAccountRoutes } from './features/accounts/routes.ts';
import { registerActivationRoutes } from './features/activations/routes.ts';
import { registerAlertRoutes } from './features/alerts/routes.ts';
import { registerApiTokenRoutes } from './features/api-tokens/routes.ts';
import { auditCheckpointJob } from './features/audit/checkpoint-service.ts';
import { registerAuditRoutes } from './features/audit/routes.ts';
import { registerAuth } from './features/auth/routes.ts';
import { registerClsRoutes } from './features/cls-api/routes.ts';
import { registerCredentialRoutes } from './features/credentials/routes.ts';
import { registerEmailRoutes } from './features/emails/routes.ts';
import { registerEntitlementRoutes } from './features/entitlements/routes.ts';
import { registerFeatureFlagRoutes } from './features/featureflags/routes.ts';
import { registerFsaRoutes } from './features/fsa/routes.ts';
import { registerIpRuleRoutes } from './features/ip-rules/routes.ts';
import { registerLicenseFileRoutes } from './features/license-files/routes.ts';
import { registerLicenseServerRoutes } from './features/license-servers/routes.ts';
import { registerNoticeRoutes } from './features/notices/routes.ts';
import { noticesJob } from './features/notices/service.ts';
import { registerPlatformRoutes } from './features/platform/routes.ts';
import { registerPortalAccessRoutes } from './features/portal-access/routes.ts';
import { registerPrefsRoutes } from './features/prefs/routes.ts';
import { registerScimRoutes } from './features/scim/routes.ts';
import { registerStatementRoutes } from './features/statements/routes.ts';
import { registerTransactionRoutes } from './features/transactions/routes.ts';
import { usageRetentionJob } from './features/usage-retention/service.ts';
import { registerUserRoutes } from './features/user/routes.ts';
import { registerWebDirectoryRoutes } from './features/web-directory/routes.ts';
import { registerWebReportingRoutes } from './features/web-reporting/routes.ts';
import { webUsageRollupJob } from './features/web-reporting/service.ts';
import { registerWebSeatRoutes } from './features/web-seats/routes.ts';
import { registerWebSessionRoutes } from './features/web-sessions/routes.ts';
import { webSessionsSweepJob } from './features/web-sessions/service.ts';
import { installNoStore } from './platform/cache-control.ts';
import { installCompression } from './platform/compression.ts';
import type { Config } from './platform/config.ts';
import type { AppContext } from './platform/context.ts';
import {
  AppError,
  clientErrorHandler,
  frameworkErrors,
  installErrorHandler,
  installNotFoundHandler,
} from './platform/errors.ts';
import { requestScopedDb } from './platform/idempotency.ts';
import { installInputGuard } from './platform/input-guard.ts';
import { startJobRunner } from './platform/jobs.ts';
import { startMailWorker } from './platform/mail/mailer.ts';
import { createMetrics, installMetrics } from './platform/metrics.ts';
import { installReadYourWrites } from './platform/read-routing.ts';
import { trackRoutes } from './platform/route.ts';
import { loadOrCreateSecret } from './platform/secrets.ts';

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildOptions {
  /** Where the log lines go (default: stdout); tests read them from here. */
  logStream?: { write(line: string): void };
}

export async function buildApp(
  config: Config,
  database: Database,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      stream: options.logStream,
      // Cookies, tokens and passwords never reach the logs.
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password'],
        censor: '[redacted]',
      },
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Off unless TRUST_PROXY names the proxies: a forged X-Forwarded-For must not pick the client address.
    trustProxy: config.TRUST_PROXY,
    // The server names every request itself: a client's X-Request-Id is only kept beside it (request-origin.ts).
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // While closing, requests still answer 503, in the one error envelope (the preClose hook below).
    return503OnClosing: false,
    // Errors raised before routing and requests the HTTP parser refuses answer in the one envelope too.
    frameworkErrors,
    clientErrorHandler,
  });

  trackRoutes(app);

  const metrics = createMetrics(database);
  // Issue 25 §2: reads that may lag go to the replica while it keeps up (platform/read-routing.ts).
  const replica = config.DATABASE_REPLICA_URL
    ? new ReadRouter(
        database,
        await openPostgres(config.DATABASE_REPLICA_URL, config.DATABASE_POOL_MAX, timeoutsOf(config)),
        config.REPLICA_MAX_LAG_SECONDS,
      )
    : undefined;
  if (replica) {
    replica.onStatus = ({ state, lagSeconds }) => {
      metrics.replicaLag.set(lagSeconds ?? -1);
      metrics.replicaUsed.set(state === 'ok' ? 1 : 0);
    };
    replica.onVisible = (seconds) => metrics.usageVisible.observe(seconds);
  }
  const ctx: AppContext = {
    config,
    database,
    // A keyed write's request transaction while its handler runs (decision 064).
    db: requestScopedDb(database.db),
    secret: await loadOrCreateSecret(database.db, 'app-secret'),
    log: app.log,
    metrics,
    replica,
  };

  installErrorHandler(app);
  installNoStore(app);
  // Before the routes: /metrics is one of them, and every answer after is counted (decision 055).
  installMetrics(app, config, metrics);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and AG Grid inject style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The sign-in form posts to the built-in provider, which redirects back to the app.
        formAction: ["'self'", ...(config.OIDC_ISSUER ? [new URL(config.OIDC_ISSUER).origin] : [])],
        frameAncestors: ["'none'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    strictTransportSecurity: config.cookieSecure,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  // After the cookie parser, before sign-in reads the session cookie or token.
  installInputGuard(app);
  await app.register(rateLimit, { global: false });
  // Only /api/uploadserverid reads multipart forms; its limits are set where it reads the file.
  await app.register(multipart);
  // Before the routes: the compression hook is attached to each route as it is declared.
  await installCompression(app);

  await registerAuth(app, ctx);
  registerApiTokenRoutes(app, ctx);
  registerPlatformRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerPrefsRoutes(app, ctx);
  registerFeatureFlagRoutes(app, ctx);
  registerAlertRoutes(app, ctx);
  registerEmailRoutes(app, ctx);
  registerPortalAccessRoutes(app, ctx);
  registerIpRuleRoutes(app, ctx);
  registerEntitlementRoutes(app, ctx);
  registerLicenseServerRoutes(app, ctx);
  registerActivationRoutes(app, ctx);
  registerFsaRoutes(app, ctx);
  registerLicenseFileRoutes(app, ctx);
  registerStatementRoutes(app, ctx);
  registerTransactionRoutes(app, ctx);
  registerCredentialRoutes(app, ctx);
  registerClsRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerNoticeRoutes(app, ctx);
  registerWebSeatRoutes(app, ctx);
  registerWebDirectoryRoutes(app, ctx);
  registerWebSessionRoutes(app, ctx);
  registerWebReportingRoutes(app, ctx);
  await registerScimRoutes(app, ctx);

  // The e-mail delivery worker runs while the app is up (a no-op without SMTP_URL).
  let stopMailWorker: (() => Promise<void>) | undefined;
  // The jobs too (daily notices, audit checkpoints, old operation keys, the usage months ahead and past retention, the web-lease sweep, the reports' rollup): every node polls, each run happens once (decision 040).
  let stopJobs: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopMailWorker = startMailWorker(ctx);
    if (config.JOBS_ENABLED)
      stopJobs = startJobRunner(
        ctx,
        [
          noticesJob,
          auditCheckpointJob(config.AUDIT_CHECKPOINT_MINUTES),
          operationKeysPruneJob,
          usagePartitionsJob(config.CLS_BACKFILL_DAYS),
          usageRetentionJob(config.USAGE_RETENTION_MONTHS),
          webSessionsSweepJob,
          webUsageRollupJob,
        ],
        {
          pollIntervalMs: config.JOBS_POLL_SECONDS * 1000,
        },
      );
  });
  installReadYourWrites(app, ctx);
  app.addHook('onReady', async () => {
    replica?.start();
  });
  app.addHook('onClose', async () => {
    await stopJobs?.();
    await stopMailWorker?.();
    replica?.stop();
    await replica?.replica.close();
  });
  // Closing waits for every open connection, and Node only reaps idle keep-alive ones: a client that opened a
  // connection without a request, or stopped reading a response, would hold shutdown for the keep-alive
  // timeout (72 s). Requests in flight get SHUTDOWN_GRACE_MS to finish; then the rest are cut.
  let closing = false;
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    // Tells keep-alive clients and the load balancer to go elsewhere.
    reply.header('connection', 'close');
    throw new AppError('UNAVAILABLE', messages.shuttingDown);
  });
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    const cut = setTimeout(() => app.server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
    cut.unref();
    app.server.once('close', () => clearTimeout(cut));
  });

  const webDist = config.WEB_DIST ?? defaultWebDist;
  if (fs.existsSync(path.join(webDist, 'index.html'))) {
    const assets = path.join(webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies beside each text file (web/vite.config.ts); they are sent to
      // browsers that accept them, the plain file to others. The plugin (10+) adds `vary: accept-encoding` to
      // every such answer itself.
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        // Vite names every file under assets/ by its content hash: a changed file is a new URL. Anything
        // else (index.html, favicon) keeps its name across releases and must be revalidated.
        reply.header(
          'cache-control',
          filePath.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    installNotFoundHandler(app, fs.readFileSync(path.join(webDist, 'index.html')));
  } else {
    installNotFoundHandler(app);
  }
  return app;
}
