import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import {
  noticesRequestSchema,
  noticesResponseSchema,
  setNoticeChoicesRequestSchema,
  setNoticeTypesRequestSchema,
} from './schemas.ts';

/** Proactive notices (issue 13 §2, decision 041): the panel, the user's choices, the account's switched-off types. */
export const noticesApi = {
  list: defineOperation({
    operationId: 'listNotices',
    method: 'post',
    path: '/api/notices',
    summary:
      "The account's recent notices this user receives, with their choices and the account's switched-off types",
    description:
      "The account's recent notices (expiry, usage thresholds, run-out forecast) this user receives, with the user's threshold choices and the types the account has switched off. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: noticesRequestSchema,
    response: noticesResponseSchema,
  }),
  setChoices: defineOperation({
    operationId: 'setNoticeChoices',
    method: 'post',
    path: '/api/notices/choices',
    summary: 'Saves which thresholds this user receives for the account',
    description: 'Saves which thresholds of which notice types this user receives by e-mail for the account.',
    auth: 'session',
    effect: 'idempotent',
    body: setNoticeChoicesRequestSchema,
    response: okResponseSchema,
  }),
  setTypes: defineOperation({
    operationId: 'setNoticeTypes',
    method: 'post',
    path: '/api/notices/types',
    summary: "Switches notice types off for the account (the account's administrators and vendor staff)",
    description:
      "Switches notice types off (or back on) for the whole account. The account's administrators and vendor staff.",
    auth: 'session',
    effect: 'idempotent',
    body: setNoticeTypesRequestSchema,
    response: okResponseSchema,
  }),
} as const;
