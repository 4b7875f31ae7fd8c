import { products as catalogue, rateTableVersions } from '../catalogue.ts';
import { planAccounts } from './account-plans.ts';
import { addAccount } from './accounts.ts';
import { buildAlerts } from './alerts.ts';
import { createContext } from './context.ts';
import { addElastic } from './elastic.ts';
import { addEmails } from './emails.ts';
import { buildFeatures } from './features.ts';
import { addFsa } from './fsa.ts';
import { addLeases } from './leases.ts';
import { addLicenseServers } from './license-servers.ts';
import type { DemoWorld } from './types.ts';
import { buildUsers } from './users.ts';
import { addWebPools } from './web-pools.ts';

/**
 * The demo world as plain rows: a pure function of (seed, today), so the same seed on the same UTC day gives
 * identical data. Usage sessions are not listed here (they are generated inside the database, see seed.ts);
 * `sessionPlan` carries what that SQL needs. The areas draw from one random stream, so the order of the calls
 * below is part of the world: reordering them changes every row after the move.
 */
export function buildWorld(seed: number, today: string): DemoWorld {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`today must be YYYY-MM-DD, got ${today}`);
  const ctx = createContext(seed, today);
  const users = buildUsers(ctx);
  for (const [index, plan] of planAccounts(ctx).entries()) {
    const account = addAccount(ctx, plan, index);
    const ssl = addLeases(ctx, account);
    addElastic(ctx, account);
    const fsaLines = addFsa(ctx, account);
    const servers = addLicenseServers(ctx, account, [...ssl, ...fsaLines]);
    addEmails(ctx, account, ssl, fsaLines, servers);
  }
  addWebPools(ctx);
  const { rows } = ctx;
  const elasticProducts = catalogue.filter((x) => x.elasticRate);
  return {
    today,
    users,
    accounts: rows.accounts,
    contacts: rows.contacts,
    products: catalogue.map(({ partNumber, name, family, daemon, featureName }) => ({
      partNumber,
      name,
      family,
      daemon,
      featureName,
    })),
    entitlements: rows.entitlements,
    fsaPrices: rows.fsaPrices,
    licenseServers: rows.licenseServers,
    licenseServerAccounts: rows.licenseServerAccounts,
    fulfillments: rows.fulfillments,
    fulfillmentEvents: rows.fulfillmentEvents,
    emails: rows.emails,
    alerts: buildAlerts(ctx.at),
    features: buildFeatures(),
    sessionPlan: {
      accounts: rows.sessionAccounts,
      periods: rows.periods,
      targets: rows.targets,
      products: elasticProducts.map((x) => ({ name: x.name, hpc: Boolean(x.hpc) })),
    },
    // Older rate tables are a little cheaper (5 % per version).
    rateTables: rateTableVersions.flatMap((version, v) =>
      elasticProducts.map((x) => ({
        version,
        product: x.name,
        rate: Math.round(x.elasticRate! * (1 - 0.05 * (rateTableVersions.length - 1 - v)) * 100) / 100,
      })),
    ),
  };
}

/** Today's UTC date as 'YYYY-MM-DD': the anchor that keeps demo data recent. */
export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);
