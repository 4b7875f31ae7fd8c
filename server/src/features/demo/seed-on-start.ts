import { asc, count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, type Db, lockUntilCommit } from '../../db/database.ts';
import { accounts, idpAccounts, portalContacts } from '../../db/schema.ts';
import type { Config } from '../../platform/config.ts';
import { sealingKey } from '../../platform/sealing-key.ts';
import { seedDemoWorld } from './seed.ts';

export const DEMO_SEED = 42;

/** Seeds the demo world into an empty database (first `npm start`), then lists the demo users outside production. */
export async function seedIfEmpty(log: FastifyBaseLogger, database: Database, config: Config): Promise<void> {
  await database.db.transaction(async (tx) => {
    // API nodes starting together on one empty PostgreSQL database: one seeds, the others wait for its commit
    // here and then find the world there (without the lock both seeded and all but one crashed on a duplicate).
    await lockUntilCommit(tx, 'demo-seed');
    const [{ n }] = await tx.select({ n: count() }).from(accounts);
    if (n > 0) return;
    log.info({ sessions: config.SEED_SESSIONS }, 'empty database: seeding the demo world');
    const summary = await seedDemoWorld(tx, {
      seed: DEMO_SEED,
      sessions: config.SEED_SESSIONS,
      demoPassword: config.DEMO_PASSWORD,
      pinKey: await sealingKey({ db: tx, config }),
    });
    log.info({ ...summary.counts, elapsedMs: summary.elapsedMs }, 'demo world seeded');
  });
  if (!config.production && config.builtInIdp) {
    const lines = await demoUserLines(database.db);
    if (lines.length) console.log([`Demo users (password: ${config.DEMO_PASSWORD})`, ...lines].join('\n'));
  }
}

/** One line per built-in IdP user: email, then vendor roles or the per-account contact roles. */
export async function demoUserLines(db: Db): Promise<string[]> {
  const people = await db.select().from(idpAccounts).orderBy(asc(idpAccounts.email));
  const contacts = await db.select().from(portalContacts).orderBy(asc(portalContacts.customerNumber));
  const width = Math.max(0, ...people.map((p) => p.email.length));
  return people.map((p) => {
    const mine = contacts.filter((c) => c.email === p.email.toLowerCase());
    const what = p.roles.length
      ? p.roles.join(', ')
      : mine.length
        ? mine.map((c) => `${c.customerNumber}: ${c.role}`).join('; ')
        : 'no account';
    return `  ${p.email.padEnd(width)}  ${what}`;
  });
}
