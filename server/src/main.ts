import './platform/node-version.ts';
import './platform/tracing.ts';

/** The error with its causes: a driver's wrapped error ("Failed query: …") hides the database's reason. */
function withCauses(e: Error): string {
  const parts = [e.message];
  for (let c: unknown = e.cause; c instanceof Error && parts.length < 5; c = c.cause)
    if (!parts.includes(c.message)) parts.push(c.message);
  return parts.join(': ');
}

async function main() {
  // Loaded here, not imported above: in the compiled bundle a static import's chunk would load before the Node.js
  // version check and tracing.
  const { ConfigError, loadConfig } = await import('./platform/config.ts');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  // The app's modules (about 1 700, two seconds) load only once the settings are checked: a bad variable is
  // refused in a fraction of a second.
  const [
    { buildApp },
    { openDatabase },
    { seedIfEmpty },
    { ensureRouteFeatures },
    { ensureUsagePartitions },
    { sealingKey },
    { SealingKeyError },
  ] = await Promise.all([
    import('./app.ts'),
    import('./db/database.ts'),
    import('./features/demo/seed-on-start.ts'),
    import('./features/featureflags/service.ts'),
    import('./db/partitions.ts'),
    import('./platform/sealing-key.ts'),
    import('./platform/secret-box.ts'),
  ]);
  const database = await openDatabase(config).catch((e: Error) => {
    console.error(`Cannot open the database: ${withCauses(e)}`);
    process.exit(1);
  });
  const app = await buildApp(config, database);
  // A key that cannot open the database's secrets is in the log at start, not at the first license file; the node
  // still serves everything else and answers 503 where a sealed key is needed (decision 043).
  await sealingKey({ db: database.db, config }).catch((e: unknown) => {
    if (!(e instanceof SealingKeyError)) throw e;
    app.log.error(
      { fix: e.operatorFix },
      'sealed secrets cannot be opened: license files and PINs answer 503',
    );
  });
  // Product data, not demo data: an installation started with SEED_ON_EMPTY=false has its route features too.
  const added = await ensureRouteFeatures(database.db);
  if (added.length) app.log.info({ features: added }, 'route features added');
  // The usage months ingest can write have their partitions before the first request (the daily job keeps them).
  await ensureUsagePartitions(database.db, new Date(), config.CLS_BACKFILL_DAYS);
  if (config.seedDemo) {
    if (config.production)
      app.log.warn(
        'DEMO_DATA_IN_PROD=true: an empty database gets the demo world and its demo users (not for real customers)',
      );
    // Seeding may outlast the statement deadline, and nodes starting together wait for it (decision 043).
    await database.unbounded((setup) => seedIfEmpty(app.log, setup, config));
  }

  let closing = false;
  // A request in flight at the signal gets its answer with `connection: close`: its keep-alive connection ends
  // with it, so closing need not wait for the cut at SHUTDOWN_GRACE_MS (decision 054).
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests get their grace period; closing the database and the workers gets 10 s more.
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    {
      url: config.publicUrl,
      database: database.engine,
      idp: config.builtInIdp ? 'built-in' : config.OIDC_ISSUER,
      node: process.version,
    },
    'listening',
  );
  console.log(`Licensing Portal is ready at ${config.publicUrl} (Node ${process.version})`);
}

void main();
