import { defineOperation } from '../common/operation.ts';
import { featuresResponseSchema, saveFeaturesRequestSchema, saveFeaturesResponseSchema } from './schemas.ts';

export const featureFlagsApi = {
  list: defineOperation({
    operationId: 'listFeatures',
    method: 'get',
    path: '/api/featureflag/features',
    summary: 'Feature flags and the set in force for the user',
    description:
      'Every feature flag and the set in force for the signed-in user; the web app hides routes whose feature is off.',
    auth: 'session',
    effect: 'read',
    response: featuresResponseSchema,
  }),
  save: defineOperation({
    operationId: 'saveFeatures',
    method: 'post',
    path: '/api/featureflag/features',
    summary: 'Save the user feature set (non-production, vendor staff; 422 on conflict)',
    description:
      "Saves the signed-in user's own feature set (outside production, vendor staff only). Features that exclude each other are refused with 422 naming them.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      403: 'In production, or the user is not vendor staff.',
      422: 'The set holds features that cannot be on together (`err` names them).',
    },
    body: saveFeaturesRequestSchema,
    response: saveFeaturesResponseSchema,
  }),
} as const;
