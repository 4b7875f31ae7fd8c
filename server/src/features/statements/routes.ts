import { statementEmailRequestSchema, statementRequestSchema } from '@lp/contract/statements/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { getStatement, getStatementPdf, sendStatementEmail } from './service.ts';

/** Spec 001 §2.2, §7: the summary statement, its PDF and the weekly / monthly statement e-mails. */
export function registerStatementRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/statements', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(statementRequestSchema, request.body);
    return { status: 'SUCCESS', data: await getStatement(ctx, principal, body) };
  });

  app.post('/api/getPdf', async (request, reply) => {
    const principal = requirePrincipal(request);
    const body = parseInput(statementRequestSchema, request.body);
    const { pdf, fileName } = await getStatementPdf(ctx, principal, body);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(pdf);
  });

  app.post('/api/emailweek', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(statementEmailRequestSchema, request.body);
    await sendStatementEmail(ctx, principal, 'week', body);
    return { status: 'SUCCESS' };
  });

  app.post('/api/emailmonth', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(statementEmailRequestSchema, request.body);
    await sendStatementEmail(ctx, principal, 'month', body);
    return { status: 'SUCCESS' };
  });
}
