import { messages } from '@lp/contract/common/errors';
import { customerNumberField } from '@lp/contract/common/fields';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { route } from '../../platform/route.ts';
import {
  deactivateSharedGroup,
  hostCustomers,
  hostOverride,
  listHosts,
  readUploadedHost,
  removeHost,
  setSharedGroup,
} from './service.ts';

/** An uploaded host file is small text: a license file of a few thousand lines stays far below this. */
export const UPLOAD_MAX_BYTES = 1_048_576;

/** The multipart form of /api/uploadserverid: one file and the customerNumber field. */
async function readUpload(request: FastifyRequest): Promise<{ customerNumber: string; text: string }> {
  if (!request.isMultipart()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file as multipart/form-data (fields file and customerNumber).',
    );
  }
  const part = await request.file({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10 } });
  if (!part) throw badRequest(messages.uploadNeedsFile);
  let content: Buffer;
  try {
    content = await part.toBuffer();
  } catch (e) {
    if (e instanceof request.server.multipartErrors.RequestFileTooLargeError)
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${UPLOAD_MAX_BYTES / 1_048_576} MB.`);
    throw e;
  }
  const field = part.fields.customerNumber;
  const value = field && !Array.isArray(field) && field.type === 'field' ? field.value : undefined;
  const customerNumber = customerNumberField.safeParse(value);
  if (!customerNumber.success) throw badRequest('customerNumber: a customer number is required');
  return { customerNumber: customerNumber.data, text: content.toString('utf8') };
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
