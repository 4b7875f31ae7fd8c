import { customerNumberField } from '@lp/contract/common/fields';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { readUploadForm } from '../../platform/multipart.ts';
import { route } from '../../platform/route.ts';
import {
  deactivateSharedGroup,
  hostCustomers,
  hostOverride,
  listHosts,
  readUploadedHost,
  removeHost,
  setHostSettings,
  setSharedGroup,
} from './service.ts';

/** An uploaded host file is small text: a license file of a few thousand lines stays far below this. */
export const UPLOAD_MAX_BYTES = 1_048_576;

/** The multipart form of /api/uploadserverid: one file and the customerNumber field. */
async function readUpload(request: FastifyRequest): Promise<{ customerNumber: string; text: string }> {
  const { fields, text } = await readUploadForm(request, {
    file: 'file',
    fields: ['customerNumber'],
    maxFileBytes: UPLOAD_MAX_BYTES,
  });
  const customerNumber = customerNumberField.safeParse(fields.customerNumber);
  if (!customerNumber.success) throw badRequest('customerNumber: a customer number is required');
  return { customerNumber: customerNumber.data, text };
}

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
    licenseServersApi.settings,
  )(async ({ principal, body }) => {
    await setHostSettings(ctx, principal, body);
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
  route(
    app,
    ctx,
    licenseServersApi.upload,
  )(async ({ principal, request }) => {
    const { customerNumber, text } = await readUpload(request);
    return { status: 'SUCCESS', data: await readUploadedHost(ctx, principal, customerNumber, text) };
  });
}
