import type { Database } from '@lp/server/db/database';
import { clearDemoWorld, seedDemoWorld } from '@lp/server/features/demo/seed';
import { DEMO_SEED } from '@lp/server/features/demo/seed-on-start';
import type { Config } from '@lp/server/platform/config';
import { sealingKey } from '@lp/server/platform/sealing-key';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

/** `seed`: wipes the data tables and seeds the demo world in one transaction (all or nothing). */
export async function seed(
  database: Database,
  config: Config,
  args: { sessions?: number; seed?: number },
  say: Output,
): Promise<number> {
  // Seeding wipes the data tables and creates users with a known password: never on a production database by accident.
  if (config.production && !config.DEMO_DATA_IN_PROD)
    throw new CommandError(
      'APP_ENVIRONMENT=prod: seed would erase the data and create demo users with a known password. Refused (set DEMO_DATA_IN_PROD=true and a DEMO_PASSWORD of your own for a demo installation).',
    );
  const sessions = args.sessions ?? config.SEED_SESSIONS;
  const seedValue = args.seed ?? DEMO_SEED;
  say.err(
    `Seeding the demo world (seed ${seedValue}, ${sessions} usage sessions) into ${database.engine}...`,
  );
  const summary = await database.db.transaction(async (tx) => {
    await clearDemoWorld(tx);
    return seedDemoWorld(tx, {
      seed: seedValue,
      sessions,
      demoPassword: config.DEMO_PASSWORD,
      pinKey: await sealingKey({ db: tx, config }),
    });
  });
  const out = say.out;
  out(
    `Seeded demo world: seed ${summary.seed}, anchor day ${summary.today}, ${(summary.elapsedMs / 1000).toFixed(1)} s`,
  );
  for (const [table, n] of Object.entries(summary.counts)) out(`  ${table.padEnd(16)} ${n}`);
  out(`Demo password: ${config.DEMO_PASSWORD} (DEMO_PASSWORD)`);
  return 0;
}
