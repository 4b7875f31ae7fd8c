import { type ErrorCode, errorCatalogue, messages } from '@lp/contract/common/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

/** The only error type routes and services throw on purpose; its message is safe to show. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
  get httpStatus(): number {
    return errorCatalogue[this.code];
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const forbidden = (message: string = messages.noPermission) => new AppError('FORBIDDEN', message);
export const notFound = (message: string = messages.notFound) => new AppError('NOT_FOUND', message);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', messages.notSignedIn);

/** Turns a zod problem into one short sentence naming the field, never the whole issue dump. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const where = issue.path.length ? issue.path.join('.') : 'body';
  // A long list of allowed values would turn the sentence into a dump.
  const message =
    issue.code === 'invalid_value' && issue.values.length > 5 ? 'Invalid option' : issue.message;
  return `Invalid request: ${where}: ${message}`;
}

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_RATE_LIMIT: 'RATE_LIMITED',
};

/** The one error handler: known errors get their catalogue status, anything else a bare 500. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send({ status: 'FAILURE', err: error.message, code: error.code });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ status: 'FAILURE', err: describeZodError(error), code: 'BAD_REQUEST' });
    }
    const mapped =
      (error.code && fastifyCodes[error.code]) || (error.statusCode === 400 ? 'BAD_REQUEST' : undefined);
    if (mapped) {
      const err =
        mapped === 'PAYLOAD_TOO_LARGE'
          ? 'Request body is too large'
          : mapped === 'BAD_REQUEST' && error.code?.startsWith('FST_ERR_CTP')
            ? 'Malformed JSON body'
            : mapped === 'RATE_LIMITED'
              ? 'Too many requests, try again later'
              : error.message;
      return reply.status(errorCatalogue[mapped]).send({ status: 'FAILURE', err, code: mapped });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ status: 'FAILURE', err: error.message, code: 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ status: 'FAILURE', err: messages.internal, code: 'INTERNAL' });
  });
}

/** JSON 404 for unknown paths; when the SPA is served, client-side routes get its page instead. */
export function installNotFoundHandler(app: FastifyInstance, spaPage?: Buffer): void {
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (
      spaPage &&
      request.method === 'GET' &&
      !/^\/(api|oidc|cls)(\/|$)/.test(url) &&
      !/\.[a-z0-9]+$/i.test(url)
    ) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(spaPage);
    }
    return reply.status(404).send({ status: 'FAILURE', err: messages.notFound, code: 'NOT_FOUND' });
  });
}
