import {
  changePinRequestSchema,
  elasticDeviceRequestSchema,
  generatePinRequestSchema,
  getPinRequestSchema,
  getUsersRequestSchema,
  saveUsersRequestSchema,
} from '@lp/contract/credentials/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { changePin, elasticDevice, generatePin, getPin, getUsers, saveUsers } from './service.ts';

/** Spec 001 §7: the elastic license server's PIN and allowed usernames (/clscredentials). */
export function registerCredentialRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/devices/elastic', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber } = parseInput(elasticDeviceRequestSchema, request.body);
    return { status: 'SUCCESS', data: await elasticDevice(ctx, principal, customerNumber) };
  });

  app.post('/api/getpin', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, clsId } = parseInput(getPinRequestSchema, request.body);
    return { status: 'SUCCESS', data: { pin: await getPin(ctx, principal, customerNumber, clsId) } };
  });

  app.post('/api/generatepin', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, clsId } = parseInput(generatePinRequestSchema, request.body);
    return { status: 'SUCCESS', data: { pin: await generatePin(ctx, principal, customerNumber, clsId) } };
  });

  app.post('/api/changepin', async (request) => {
    const principal = requirePrincipal(request);
    await changePin(ctx, principal, parseInput(changePinRequestSchema, request.body));
    return { status: 'SUCCESS' };
  });

  app.post('/api/getUsers', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, clsId } = parseInput(getUsersRequestSchema, request.body);
    return { status: 'SUCCESS', data: { users: await getUsers(ctx, principal, customerNumber, clsId) } };
  });

  app.post('/api/saveUsers', async (request) => {
    const principal = requirePrincipal(request);
    await saveUsers(ctx, principal, parseInput(saveUsersRequestSchema, request.body));
    return { status: 'SUCCESS' };
  });
}
