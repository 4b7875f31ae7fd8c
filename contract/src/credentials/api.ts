import type { Operation } from '../common/operation.ts';
import {
  changePinRequestSchema,
  elasticDeviceRequestSchema,
  elasticDeviceResponseSchema,
  generatePinRequestSchema,
  getPinRequestSchema,
  getUsersRequestSchema,
  okResponseSchema,
  pinResponseSchema,
  saveUsersRequestSchema,
  usersResponseSchema,
} from './schemas.ts';

/** Spec 001 §7: the elastic license server credentials (PIN and allowed usernames). */
export const credentialsApi: Operation[] = [
  {
    method: 'post',
    path: '/api/devices/elastic',
    summary: 'The elastic license server of the account (deviceId, alias)',
    body: elasticDeviceRequestSchema,
    response: elasticDeviceResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getpin',
    summary: 'PIN of the elastic license server (404 "PIN not found" when it has none)',
    body: getPinRequestSchema,
    response: pinResponseSchema,
  },
  {
    method: 'post',
    path: '/api/generatepin',
    summary: 'Gives a server without a PIN a random six-digit one; answers the PIN in force',
    body: generatePinRequestSchema,
    response: pinResponseSchema,
  },
  {
    method: 'post',
    path: '/api/changepin',
    summary: 'Change the PIN (six digits; not for view-only users)',
    body: changePinRequestSchema,
    response: okResponseSchema,
  },
  {
    method: 'post',
    path: '/api/getUsers',
    summary: 'Usernames allowed on the elastic license server (empty: everyone with the PIN)',
    body: getUsersRequestSchema,
    response: usersResponseSchema,
  },
  {
    method: 'post',
    path: '/api/saveUsers',
    summary: 'Replace the allowed usernames (not for view-only users)',
    body: saveUsersRequestSchema,
    response: okResponseSchema,
  },
];
