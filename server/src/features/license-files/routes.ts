import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import {
  accountLicense,
  customersLicenses,
  downloadLicense,
  emailLicense,
  publishedKeys,
} from './service.ts';

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
  route(app, ctx, licenseFilesApi.keys)(async () => ({ status: 'SUCCESS', data: await publishedKeys(ctx) }));
}
