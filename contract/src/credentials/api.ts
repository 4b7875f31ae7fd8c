import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import {
  changePinRequestSchema,
  elasticDeviceRequestSchema,
  elasticDeviceResponseSchema,
  generatePinRequestSchema,
  getPinRequestSchema,
  getUsersRequestSchema,
  pinResponseSchema,
  saveUsersRequestSchema,
  storedPinResponseSchema,
  usersResponseSchema,
} from './schemas.ts';

/** Spec 001 §7: the elastic license server credentials (PIN and allowed usernames). */
export const credentialsApi = {
  elasticDevice: defineOperation({
    operationId: 'getElasticDevice',
    method: 'post',
    path: '/api/devices/elastic',
    description: "The account's elastic license server: its device id and alias.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The account has no elastic license server.',
    },
    summary: 'The elastic license server of the account (deviceId, alias)',
    body: elasticDeviceRequestSchema,
    response: elasticDeviceResponseSchema,
  }),
  getPin: defineOperation({
    operationId: 'getPin',
    method: 'post',
    path: '/api/getpin',
    description:
      'The PIN of one elastic license server of the account (stored sealed, opened for the answer); null when it has none.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    summary: 'PIN of the elastic license server (pin null when it has none)',
    body: getPinRequestSchema,
    response: storedPinResponseSchema,
  }),
  generatePin: defineOperation({
    operationId: 'generatePin',
    method: 'post',
    path: '/api/generatepin',
    description:
      'Gives a server that has no PIN a random six-digit one and answers the PIN in force (an existing PIN is kept). Needs the right to edit the account.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    summary: 'Gives a server without a PIN a random six-digit one; answers the PIN in force',
    body: generatePinRequestSchema,
    response: pinResponseSchema,
  }),
  changePin: defineOperation({
    operationId: 'changePin',
    method: 'post',
    path: '/api/changepin',
    description: "Sets the server's PIN to six digits the user chose; view-only users may not. Audited.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    summary: 'Change the PIN (six digits; not for view-only users)',
    body: changePinRequestSchema,
    response: okResponseSchema,
  }),
  getUsers: defineOperation({
    operationId: 'getAllowedUsers',
    method: 'post',
    path: '/api/getUsers',
    description:
      'The usernames the elastic license server lets check out licenses; an empty list lets everyone with the PIN.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    summary: 'Usernames allowed on the elastic license server (empty: everyone with the PIN)',
    body: getUsersRequestSchema,
    response: usersResponseSchema,
  }),
  saveUsers: defineOperation({
    operationId: 'saveAllowedUsers',
    method: 'post',
    path: '/api/saveUsers',
    description:
      'Replaces the allowed usernames (kept as typed; compared ignoring case); view-only users may not. Audited.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    summary: 'Replace the allowed usernames (not for view-only users)',
    body: saveUsersRequestSchema,
    response: okResponseSchema,
  }),
} as const;
