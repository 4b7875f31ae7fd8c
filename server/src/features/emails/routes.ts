import { emailsApi, emailsQuery } from '@lp/contract/emails/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
import { countEmails, distinctEmailValues, getEmail, listEmails, removeEmail } from './service.ts';

/** The e-mails an account was sent (spec 000 §2.7, §2.8, §7). */
export function registerEmailRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerQueryEndpoints(app, ctx, emailsQuery, {
    page: (principal, body) => listEmails(ctx, principal, body),
    count: (principal, { customerNumber, filter }) => countEmails(ctx, principal, customerNumber, filter),
    distinct: (principal, body) => distinctEmailValues(ctx, principal, body),
  });

  route(
    app,
    ctx,
    emailsApi.get,
  )(async ({ principal, body }) => ({
    data: await getEmail(ctx, principal, body.customerNumber, body.id),
  }));

  route(
    app,
    ctx,
    emailsApi.remove,
  )(async ({ principal, params }) => {
    await removeEmail(ctx, principal, params.id);
  });
}
