import { buildApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { seedIfEmpty } from './features/demo/seed-on-start.ts';
import { ensureRouteFeatures } from './features/featureflags/service.ts';
import { ConfigError, loadConfig } from './platform/config.ts';

async function main() {
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
  const database = await openDatabase(config).catch((e: Error) => {
    console.error(`Cannot open the database: ${e.message}`);
    process.exit(1);
  });
  const app = await buildApp(config, database);
  // Product data, not demo data: an installation started with SEED_ON_EMPTY=false has its route features too.
  const added = await ensureRouteFeatures(database.db);
  if (added.length) app.log.info({ features: added }, 'route features added');
  if (config.SEED_ON_EMPTY) await seedIfEmpty(app.log, database, config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
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
