import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import { prefsResponseSchema, savePrefsRequestSchema } from './schemas.ts';

export const prefsApi = {
  list: defineOperation({
    operationId: 'listTablePrefs',
    method: 'get',
    path: '/api/featureflag/pref',
    summary: 'Saved table views of the user',
    description:
      "The user's saved views of each table (columns, order, widths, filters and date ranges), keyed by table.",
    auth: 'session',
    effect: 'read',
    response: prefsResponseSchema,
  }),
  save: defineOperation({
    operationId: 'saveTablePrefs',
    method: 'post',
    path: '/api/featureflag/pref',
    summary: 'Save or reset table views',
    description:
      "Saves one table's views, or resets them to the defaults; the date fields are stored as the browser sent them once checked.",
    auth: 'session',
    effect: 'idempotent',
    body: savePrefsRequestSchema,
    response: okResponseSchema,
  }),
} as const;
