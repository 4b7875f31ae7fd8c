import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorCatalogue, messages } from '@lp/contract/common/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

/** The only error type routes and services throw on purpose; its message is safe to show. */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** What an operator must do about it (an outage only they can fix): logged, never sent to the client. */
  readonly operatorFix?: string;

  constructor(code: ErrorCode, message: string, operatorFix?: string) {
    super(message);
    this.code = code;
    this.operatorFix = operatorFix;
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
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'BAD_REQUEST',
};

const fastifyTexts: Partial<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_RATE_LIMIT: 'Too many requests, try again later',
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'Malformed URL: a path segment is too long',
};

const codeOfStatus = new Map<number, ErrorCode>(
  Object.entries(errorCatalogue).map(([code, status]) => [status, code as ErrorCode]),
);

// Connection-level failures of either engine: node-postgres/net codes, PostgreSQL's connection-exception
// (08xxx) and shutdown (57P0x) classes, too many connections, and a closed pool or PGlite instance.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '53300',
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed|PGlite is closed|database system is (starting up|shutting down)/i;

/** True when the error (or what it wraps) says the database cannot be reached. */
/** Whether the error or one of its causes (drivers wrap them) matches. */
function anyCause(error: unknown, test: (code: unknown, message: unknown) => boolean): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (test(code, message)) return true;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(
    error,
    (code, message) =>
      (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^(08|57P0)/.test(code))) ||
      (typeof message === 'string' && UNAVAILABLE_TEXT.test(message)),
  );
}

/**
 * A statement PostgreSQL cancelled at its statement_timeout (57014) or a lock wait it ended at its lock_timeout
 * (55P03): the database is there but too slow or too contended to answer in time (decision 043).
 */
export const isDatabaseTimeout = (error: unknown) =>
  anyCause(error, (code) => code === '57014' || code === '55P03');

/** PostgreSQL gave up on one of two conflicting transactions (deadlock, serialization): a retry succeeds. */
export const isRetryableConflict = (error: unknown) =>
  anyCause(error, (code) => code === '40P01' || code === '40001');

export interface ErrorAnswer {
  statusCode: number;
  body: { status: 'FAILURE'; err: string; code: ErrorCode };
  /** unexpected: log it with the request id */
  unexpected: boolean;
}

const answer = (code: ErrorCode, err: string, unexpected = false): ErrorAnswer => ({
  statusCode: errorCatalogue[code],
  body: { status: 'FAILURE', err, code },
  unexpected,
});

/**
 * What any error answers, in the one envelope {status: 'FAILURE', err, code}: AppErrors and schema problems
 * their catalogue status, Fastify's own 4xx errors (bad URL, body, content type, size) theirs, an unreachable
 * database 503, anything else a bare 500.
 */
export function answerFor(error: FastifyError | AppError | ZodError | Error): ErrorAnswer {
  if (error instanceof AppError) return answer(error.code, error.message);
  if (error instanceof ZodError) return answer('BAD_REQUEST', describeZodError(error));
  if (isDatabaseUnavailable(error)) return answer('UNAVAILABLE', messages.databaseUnavailable);
  if (isRetryableConflict(error)) return answer('UNAVAILABLE', messages.retryConflict);
  if (isDatabaseTimeout(error)) return answer('UNAVAILABLE', messages.databaseTimeout);
  const { code, statusCode } = error as FastifyError;
  const mapped = (code && fastifyCodes[code]) || (statusCode === 400 ? 'BAD_REQUEST' : undefined);
  if (mapped) {
    const text =
      fastifyTexts[code] ??
      (mapped === 'BAD_REQUEST' && code?.startsWith('FST_ERR_CTP') ? 'Malformed JSON body' : error.message);
    return answer(mapped, text);
  }
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    const known = codeOfStatus.get(statusCode);
    return { ...answer(known ?? 'BAD_REQUEST', error.message), statusCode };
  }
  return answer('INTERNAL', messages.internal, true);
}

/** The one error handler: known errors get their catalogue status, anything else a bare 500. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const { statusCode, body, unexpected } = answerFor(error);
    if (unexpected) {
      // A reference the user can quote (spec 002 §8 shows a 32-hex id in parentheses) and support finds in the log.
      const reference = randomUUID().replaceAll('-', '');
      request.log.error({ err: error, reference }, 'unhandled error');
      return reply.status(statusCode).send({ ...body, err: messages.internalWithReference(reference) });
    }
    if (error instanceof AppError && error.operatorFix)
      request.log.error({ fix: error.operatorFix }, error.message);
    else if (statusCode === 503) request.log.warn({ err: error }, 'database unavailable');
    return reply.status(statusCode).send(body);
  });
}

/** Fastify's `frameworkErrors`: errors raised before routing (malformed URL encoding, a too-long path segment). */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const { statusCode, body } = answerFor(error);
  reply.status(statusCode).send(body);
}

/** Fastify's `clientErrorHandler`: a request the HTTP parser refused still gets the envelope. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Node's codes: oversized headers are 431, a timed-out request 408, anything else is a bad request.
  const [status, err] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ status: 'FAILURE', err, code: 'BAD_REQUEST' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nCache-Control: no-store\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the not-found handler when it answered with the web app's page (a client-side route). */
    servedWebApp?: boolean;
  }
}

/**
 * Paths the web app never routes: the API, the OpenID provider, the license-server API and the metrics, each as a
 * whole path segment (`/clscredentials` is a web page, `/cls/x` is not). Unknown ones answer the 404 envelope,
 * never the web app's page with 200 (issue 22 §2).
 */
const serverPaths = /^\/+(api|oidc|cls|metrics)(\/|$)/;

/** JSON 404 for unknown paths; when the SPA is served, client-side routes get its page instead. */
export function installNotFoundHandler(app: FastifyInstance, spaPage?: Buffer): void {
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    // HEAD too: a load balancer's health check or `curl -I` of a page must see the 200 a GET gets.
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (spaPage && read && !serverPaths.test(url) && !/\.[a-z0-9]+$/i.test(url)) {
      request.servedWebApp = true;
      return reply.type('text/html').header('cache-control', 'no-cache').send(spaPage);
    }
    return reply.status(404).send({ status: 'FAILURE', err: messages.notFound, code: 'NOT_FOUND' });
  });
}
