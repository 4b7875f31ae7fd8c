import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import {
  deactivateSharedGroup,
  hostCustomers,
  hostOverride,
  listHosts,
  removeHost,
  setSharedGroup,
} from './service.ts';

/** Spec 002 §7: license servers (hosts) and their shared-server groups. */
export function registerLicenseServerRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    licenseServersApi.list,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await listHosts(ctx, principal, body.customerNumber),
  }));
  route(
    app,
    ctx,
    licenseServersApi.customers,
  )(async ({ principal, body }) => ({ status: 'SUCCESS', data: await hostCustomers(ctx, principal, body) }));
  route(
    app,
    ctx,
    licenseServersApi.override,
  )(async ({ principal, body }) => ({ status: 'SUCCESS', data: await hostOverride(ctx, principal, body) }));
  route(
    app,
    ctx,
    licenseServersApi.setSharedGroup,
  )(async ({ principal, body }) => {
    await setSharedGroup(ctx, principal, body);
    return { status: 'SUCCESS' };
  });
  route(
    app,
    ctx,
    licenseServersApi.deactivateSharedGroup,
  )(async ({ principal, body }) => {
    await deactivateSharedGroup(ctx, principal, body);
    return { status: 'SUCCESS' };
  });
  route(
    app,
    ctx,
    licenseServersApi.remove,
  )(async ({ principal, body }) => {
    await removeHost(ctx, principal, body);
    return { status: 'SUCCESS' };
  });
}
