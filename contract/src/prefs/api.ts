import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import { prefsResponseSchema, savePrefsRequestSchema } from './schemas.ts';

export const prefsApi = {
  list: defineOperation({
    operationId: 'listTablePrefs',
    method: 'get',
    path: '/api/featureflag/pref',
    summary: 'Saved table views of the user',
    auth: 'session',
    response: prefsResponseSchema,
  }),
  save: defineOperation({
    operationId: 'saveTablePrefs',
    method: 'post',
    path: '/api/featureflag/pref',
    summary: 'Save or reset table views',
    auth: 'session',
    body: savePrefsRequestSchema,
    response: okResponseSchema,
  }),
} as const;
