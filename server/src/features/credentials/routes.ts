import { credentialsApi } from '@lp/contract/credentials/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { changePin, elasticDevice, generatePin, getPin, getUsers, saveUsers } from './service.ts';

export function registerCredentialRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    credentialsApi.elasticDevice,
  )(async ({ principal, body }) => ({
    data: await elasticDevice(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    credentialsApi.getPin,
  )(async ({ principal, body }) => ({
    data: { pin: await getPin(ctx, principal, body.customerNumber, body.clsId) },
  }));

  route(
    app,
    ctx,
    credentialsApi.generatePin,
  )(async ({ principal, body }) => ({
    data: { pin: await generatePin(ctx, principal, body.customerNumber, body.clsId) },
  }));

  route(
    app,
    ctx,
    credentialsApi.changePin,
  )(async ({ principal, body }) => {
    await changePin(ctx, principal, {
      customerNumber: body.customerNumber,
      elasticServerId: body.clsId,
      pin: body.pin,
    });
  });

  route(
    app,
    ctx,
    credentialsApi.getUsers,
  )(async ({ principal, body }) => ({
    data: { users: await getUsers(ctx, principal, body.customerNumber, body.clsId) },
  }));

  route(
    app,
    ctx,
    credentialsApi.saveUsers,
  )(async ({ principal, body }) => {
    await saveUsers(ctx, principal, {
      customerNumber: body.customerNumber,
      elasticServerId: body.clsId,
      users: body.users,
    });
  });
}
