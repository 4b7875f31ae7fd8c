import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { readUploadForm } from '../../platform/multipart.ts';
import { route } from '../../platform/route.ts';
import { downloadLicense, emailLicense } from './delivery.ts';
import { accountLicense, customersLicenses } from './generate.ts';
import { previewLicenseChanges } from './preview.ts';
import { publishedKeys } from './signing-keys.ts';
import { verifyLicenseFile } from './verify.ts';

/** A license file to verify is small text: thousands of feature lines stay far below this. */
export const VERIFY_MAX_BYTES = 1_048_576;

/** The multipart form of /api/license-files/verify: one file (field `file`), as /api/uploadserverid reads it. */
async function readLicenseUpload(request: FastifyRequest): Promise<string> {
  return (await readUploadForm(request, { file: 'file', fields: [], maxFileBytes: VERIFY_MAX_BYTES })).text;
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
