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
    auth: 'session',
    body: noticesRequestSchema,
    response: noticesResponseSchema,
  }),
  setChoices: defineOperation({
    operationId: 'setNoticeChoices',
    method: 'post',
    path: '/api/notices/choices',
    summary: 'Saves which thresholds this user receives for the account',
    auth: 'session',
    body: setNoticeChoicesRequestSchema,
    response: okResponseSchema,
  }),
  setTypes: defineOperation({
    operationId: 'setNoticeTypes',
    method: 'post',
    path: '/api/notices/types',
    summary: "Switches notice types off for the account (the account's administrators and vendor staff)",
    auth: 'session',
    body: setNoticeTypesRequestSchema,
    response: okResponseSchema,
  }),
} as const;
