import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { accountOfPasswordLink, passwordLinkPath, setPasswordWithLink } from '../user-admin.ts';
import { formRateLimit } from './form-rate-limit.ts';
import { messagePage, passwordMinLength, setPasswordPage, tooManyAttemptsMessage } from './pages.ts';

const linkSecret = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const body = z.object({
  password: z.string().max(1024).default(''),
  confirm: z.string().max(1024).default(''),
});

const expired = () =>
  messagePage(
    'Link expired',
    'This set-password link is unknown, already used or expired. Ask your portal operator for a new one.',
  );

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * The built-in provider's set-password page (decision 046): an operator's `users add` / `users password-link`
 * prints a link once; whoever opens it within 24 hours sets the account's password, and the link is used up.
 */
export async function mountSetPasswordPages(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (pages) => {
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, raw, done) => done(null, Object.fromEntries(new URLSearchParams(raw as string))),
    );
    pages.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      const status = error instanceof AppError ? error.httpStatus : (error.statusCode ?? 500);
      if (status === 429)
        return sendHtml(reply, 429, messagePage('Licensing Portal', tooManyAttemptsMessage));
      if (status >= 500) request.log.error({ err: error }, 'set-password page failed');
      return sendHtml(reply, status >= 500 ? 500 : 400, expired());
    });

    const path = `${passwordLinkPath}/:secret`;
    pages.get<{ Params: { secret: string } }>(path, async (request, reply) => {
      const secret = linkSecret.safeParse(request.params.secret);
      const account = secret.success ? await accountOfPasswordLink(ctx.db, secret.data) : null;
      if (!account) return sendHtml(reply, 404, expired());
      return sendHtml(reply, 200, setPasswordPage({ action: request.url, email: account.email }));
    });

    pages.post<{ Params: { secret: string } }>(path, formRateLimit(ctx), async (request, reply) => {
      const secret = linkSecret.safeParse(request.params.secret);
      const account = secret.success ? await accountOfPasswordLink(ctx.db, secret.data) : null;
      if (!secret.success || !account) return sendHtml(reply, 404, expired());
      const form = body.safeParse(request.body ?? {});
      const { password, confirm } = form.success ? form.data : { password: '', confirm: '' };
      const again = (error: string) =>
        sendHtml(reply, 400, setPasswordPage({ action: request.url, email: account.email, error }));
      if (password.length < passwordMinLength)
        return again(`The password must have at least ${passwordMinLength} characters.`);
      if (password !== confirm) return again('The two passwords differ.');
      if (!(await setPasswordWithLink(ctx.db, secret.data, password))) return sendHtml(reply, 404, expired());
      request.log.info({ email: account.email }, 'built-in IdP: password set through a link');
      return sendHtml(
        reply,
        200,
        messagePage('Password set', 'Your password is set. You can sign in now.', {
          href: '/api/auth/login',
          text: 'Sign in',
        }),
      );
    });
  });
}
