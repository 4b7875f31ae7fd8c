import { conflictMessage, type FeaturesData } from '@lp/contract/featureflags/schemas';
import {
  conflictingPairs,
  effectiveEnabled,
  routeFeatureDescription,
  routeFeatures,
} from '@lp/domain/feature-flags';
import { isVendorStaff } from '@lp/domain/policy';
import type { Db } from '../../db/database.ts';
import type { features } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import { findUserSelection, insertMissingFeatures, listFeatures, saveUserSelection } from './repository.ts';

/**
 * Overrides are a developer tool (spec 000 §2.3: the Features button exists outside production and
 * for vendor staff only); the server applies the same rule so a direct call cannot bypass it.
 */
const mayOverride = (ctx: AppContext, principal: Principal) =>
  !ctx.config.production && isVendorStaff(principal.vendorRoles);

export async function getFeatures(ctx: AppContext, principal: Principal): Promise<FeaturesData> {
  const all = await listFeatures(ctx.db);
  const overridable = mayOverride(ctx, principal);
  // In production a selection saved earlier (e.g. a copied database) is ignored, never applied.
  const saved = overridable ? await findUserSelection(ctx.db, principal.userId) : null;
  return { features: all, enabled: effectiveEnabled(all, saved), overridable };
}

export async function saveFeatures(
  ctx: AppContext,
  principal: Principal,
  names: string[],
): Promise<string[]> {
  if (ctx.config.production) throw forbidden('Feature flags cannot be changed in production.');
  if (!isVendorStaff(principal.vendorRoles)) throw forbidden();
  const all = await listFeatures(ctx.db);
  const known = new Set(all.map((f) => f.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) throw badRequest(`Unknown feature: ${unknown.join(', ')}`);
  const chosen = [...new Set(names)].sort();
  const pairs = conflictingPairs(all, chosen);
  if (pairs.length > 0) {
    const described = pairs.map(([a, b]) => `${a} and ${b}`).join('; ');
    throw new AppError('UNPROCESSABLE', `${conflictMessage} Conflicting: ${described}.`);
  }
  await ctx.db.transaction(async (tx) => {
    const before = await findUserSelection(tx, principal.userId);
    await saveUserSelection(tx, principal.userId, chosen);
    // A staff member's own overrides: vendor-wide, the object is their selection.
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber: null,
        action: 'featureflags.selection.saved',
        object: { type: 'feature-selection', id: principal.email },
        before: { enabled: before },
        after: { enabled: chosen },
      },
    ]);
  });
  return chosen;
}

/**
 * Gives the installation the product's route features that it lacks, on by default (decision 025). Runs at
 * every start, with or without demo data, instead of a migration: the list lives in code (domain), and
 * rows already there, whatever an administrator made of them, are left alone. Answers the names added.
 */
export async function ensureRouteFeatures(db: Db): Promise<string[]> {
  return addMissingFeatures(
    db,
    routeFeatures.map((f) => ({
      name: f.name,
      description: routeFeatureDescription(f),
      enabled: true,
      conflicts: [],
    })),
  );
}

/** Adds features that do not exist yet (the demo world's experiments); existing rows stay as they are. */
export async function addMissingFeatures(db: Db, rows: (typeof features.$inferInsert)[]): Promise<string[]> {
  return insertMissingFeatures(db, rows);
}
