import {
  emailIdParamsSchema,
  emailsCountRequestSchema,
  emailsDistinctRequestSchema,
  getEmailRequestSchema,
  getEmailsRequestSchema,
} from '@lp/contract/emails/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { countEmails, distinctEmailValues, getEmail, listEmails, removeEmail } from './service.ts';

/** The e-mails an account was sent (spec 000 §2.7, §2.8, §7). */
export function registerEmailRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/getemails', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(getEmailsRequestSchema, request.body);
    const page = await listEmails(ctx, principal, body);
    return { status: 'SUCCESS', data: page.rows, token: page.token };
  });

  app.post('/api/getemails/count', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, filter } = parseInput(emailsCountRequestSchema, request.body);
    return { status: 'SUCCESS', data: await countEmails(ctx, principal, customerNumber, filter) };
  });

  app.post('/api/getemails/distinct', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(emailsDistinctRequestSchema, request.body);
    return { status: 'SUCCESS', data: await distinctEmailValues(ctx, principal, body) };
  });

  app.post('/api/getemail', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, id } = parseInput(getEmailRequestSchema, request.body);
    return { status: 'SUCCESS', data: await getEmail(ctx, principal, customerNumber, id) };
  });

  app.delete('/api/emails/:id', async (request) => {
    const principal = requirePrincipal(request);
    const { id } = parseInput(emailIdParamsSchema, request.params);
    await removeEmail(ctx, principal, id);
    return { status: 'SUCCESS' };
  });
}
