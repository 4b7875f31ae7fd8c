import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { route } from '../../platform/route.ts';
import {
  accountLicense,
  customersLicenses,
  downloadLicense,
  emailLicense,
  previewLicenseChanges,
  publishedKeys,
  verifyLicenseFile,
} from './service.ts';

/** A license file to verify is small text: thousands of feature lines stay far below this. */
export const VERIFY_MAX_BYTES = 1_048_576;

/** The multipart form of /api/license-files/verify: one file (field `file`), as /api/uploadserverid reads it. */
async function readLicenseUpload(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data (field file).');
  }
  const part = await request.file({ limits: { fileSize: VERIFY_MAX_BYTES, files: 1, fields: 10 } });
  if (!part) throw badRequest(messages.uploadNeedsFile);
  try {
    return (await part.toBuffer()).toString('utf8');
  } catch (e) {
    if (e instanceof request.server.multipartErrors.RequestFileTooLargeError)
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${VERIFY_MAX_BYTES / 1_048_576} MB.`);
    throw e;
  }
}

/** Spec 002 §7 and issue 10 §5: signed license files of a host, their e-mail and the public keys. */
export function registerLicenseFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    licenseFilesApi.license,
  )(async ({ principal, body }) => ({ status: 'SUCCESS', ...(await accountLicense(ctx, principal, body)) }));
  route(
    app,
    ctx,
    licenseFilesApi.licenses,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    ...(await customersLicenses(ctx, principal, body)),
  }));
  route(
    app,
    ctx,
    licenseFilesApi.download,
  )(async ({ principal, body, reply }) => {
    const { fileName, text } = await downloadLicense(ctx, principal, body);
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(text);
  });
  route(
    app,
    ctx,
    licenseFilesApi.email,
  )(async ({ principal, body }) => {
    await emailLicense(ctx, principal, body);
    return { status: 'SUCCESS' };
  });
  route(
    app,
    ctx,
    licenseFilesApi.preview,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await previewLicenseChanges(ctx, principal, body),
  }));
  route(
    app,
    ctx,
    licenseFilesApi.verify,
  )(async ({ request }) => ({
    status: 'SUCCESS',
    data: await verifyLicenseFile(ctx, await readLicenseUpload(request)),
  }));
  route(app, ctx, licenseFilesApi.keys)(async () => ({ status: 'SUCCESS', data: await publishedKeys(ctx) }));
}
