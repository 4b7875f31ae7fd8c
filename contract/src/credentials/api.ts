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
    auth: 'session',
    summary: 'The elastic license server of the account (deviceId, alias)',
    body: elasticDeviceRequestSchema,
    response: elasticDeviceResponseSchema,
  }),
  getPin: defineOperation({
    operationId: 'getPin',
    method: 'post',
    path: '/api/getpin',
    auth: 'session',
    summary: 'PIN of the elastic license server (pin null when it has none)',
    body: getPinRequestSchema,
    response: storedPinResponseSchema,
  }),
  generatePin: defineOperation({
    operationId: 'generatePin',
    method: 'post',
    path: '/api/generatepin',
    auth: 'session',
    summary: 'Gives a server without a PIN a random six-digit one; answers the PIN in force',
    body: generatePinRequestSchema,
    response: pinResponseSchema,
  }),
  changePin: defineOperation({
    operationId: 'changePin',
    method: 'post',
    path: '/api/changepin',
    auth: 'session',
    summary: 'Change the PIN (six digits; not for view-only users)',
    body: changePinRequestSchema,
    response: okResponseSchema,
  }),
  getUsers: defineOperation({
    operationId: 'getAllowedUsers',
    method: 'post',
    path: '/api/getUsers',
    auth: 'session',
    summary: 'Usernames allowed on the elastic license server (empty: everyone with the PIN)',
    body: getUsersRequestSchema,
    response: usersResponseSchema,
  }),
  saveUsers: defineOperation({
    operationId: 'saveAllowedUsers',
    method: 'post',
    path: '/api/saveUsers',
    auth: 'session',
    summary: 'Replace the allowed usernames (not for view-only users)',
    body: saveUsersRequestSchema,
    response: okResponseSchema,
  }),
} as const;
