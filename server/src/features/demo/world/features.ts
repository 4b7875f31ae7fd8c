import type { FeatureRow } from './types.ts';

/**
 * Two mutually exclusive experiments, off by default, so the Features dialog has a conflict to refuse. The
 * route features are not demo data: they belong to the product (`routeFeatures` in domain/src/feature-flags.ts)
 * and every installation gets them at start (decision 025).
 */
export function buildFeatures(): FeatureRow[] {
  return [
    {
      name: 'experimental-statement-charts',
      description: 'Experimental: interactive charts on the elastic statement',
      enabled: false,
      conflicts: ['experimental-statement-classic'],
    },
    {
      name: 'experimental-statement-classic',
      description: 'Experimental: classic tabular elastic statement without charts',
      enabled: false,
      conflicts: ['experimental-statement-charts'],
    },
  ];
}
