import { statementsApi } from '@lp/contract/statements/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { getStatement, getStatementPdf, sendStatementEmail } from './service.ts';

/** Spec 001 §2.2, §7: the summary statement, its PDF and the weekly / monthly statement e-mails. */
export function registerStatementRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    statementsApi.statement,
  )(async ({ principal, body }) => ({
    data: await getStatement(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    statementsApi.pdf,
  )(async ({ principal, body, reply }) => {
    const { pdf, fileName } = await getStatementPdf(ctx, principal, body);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(pdf);
  });

  route(
    app,
    ctx,
    statementsApi.emailWeek,
  )(async ({ principal, body }) => {
    await sendStatementEmail(ctx, principal, 'week', body);
  });

  route(
    app,
    ctx,
    statementsApi.emailMonth,
  )(async ({ principal, body }) => {
    await sendStatementEmail(ctx, principal, 'month', body);
  });
}
