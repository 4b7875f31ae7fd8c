import { defineOperation } from '../common/operation.ts';
import { featuresResponseSchema, saveFeaturesRequestSchema, saveFeaturesResponseSchema } from './schemas.ts';

export const featureFlagsApi = {
  list: defineOperation({
    operationId: 'listFeatures',
    method: 'get',
    path: '/api/featureflag/features',
    summary: 'Feature flags and the set in force for the user',
    auth: 'session',
    response: featuresResponseSchema,
  }),
  save: defineOperation({
    operationId: 'saveFeatures',
    method: 'post',
    path: '/api/featureflag/features',
    summary: 'Save the user feature set (non-production, vendor staff; 422 on conflict)',
    auth: 'session',
    body: saveFeaturesRequestSchema,
    response: saveFeaturesResponseSchema,
  }),
} as const;
