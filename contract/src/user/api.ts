import { defineOperation } from '../common/operation.ts';
import { userDetailsResponseSchema } from './schemas.ts';

export const userApi = {
  details: defineOperation({
    operationId: 'getUserDetails',
    method: 'get',
    path: '/api/getUserDetails',
    summary: 'The signed-in user',
    description: "Name, e-mail, vendor roles and the accounts' access of the signed-in user.",
    auth: 'session',
    effect: 'read',
    response: userDetailsResponseSchema,
  }),
} as const;
