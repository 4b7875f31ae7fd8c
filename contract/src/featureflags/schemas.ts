import { z } from 'zod';
import { successOf } from '../common/envelope.ts';

/** One feature flag (spec 000 §3 "Feature"): a route's top path segment or an experimental switch. */
export const featureSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** On by default, for users without a saved choice (and for everyone in production). */
  enabled: z.boolean(),
  /** Names this feature cannot be enabled together with. */
  conflicts: z.array(z.string()),
});
export type Feature = z.infer<typeof featureSchema>;

/**
 * GET /api/featureflag/features:
 * {status:'SUCCESS', data:{features:[Feature], enabled:[names in force for this user], overridable}}.
 * `enabled` is the user's saved set when overrides apply, else every feature with enabled=true.
 * `overridable` is true when this user may save a set (non-production environment, vendor staff).
 */
export const featuresResponseSchema = successOf(
  z.object({
    features: z.array(featureSchema),
    enabled: z.array(z.string()),
    overridable: z.boolean(),
  }),
);
export type FeaturesData = z.infer<typeof featuresResponseSchema>['data'];

/**
 * POST /api/featureflag/features {features:[names to enable]} -> {status:'SUCCESS', data:{enabled}}.
 * 400 unknown name or bad body, 403 in production or for non-staff, 422 conflicting selection.
 */
export const saveFeaturesRequestSchema = z.strictObject({
  features: z.array(z.string().min(1).max(100)).max(500),
});
export type SaveFeaturesRequest = z.infer<typeof saveFeaturesRequestSchema>;

export const saveFeaturesResponseSchema = successOf(z.object({ enabled: z.array(z.string()) }));

/** The dialog's text and the start of the server's 422 message (spec 000 §2.11). */
export const conflictMessage = 'Selections are in conflict. Deselect one or more option.';
