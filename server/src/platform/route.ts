import { Readable } from 'node:stream';
import type { AuthKind, Operation } from '@lp/contract/common/operation';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { ZodLiteral, type z } from 'zod';
import type { AppContext } from './context.ts';
import { describeZodError } from './errors.ts';
import { answerOnce, idempotencyKeyOf } from './idempotency.ts';
import { type Principal, requirePrincipal } from './principal.ts';
import { parseInput, refuseUndeclared } from './validate.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declared operation a route serves (set by `route`). */
    operationId?: string;
    auth?: AuthKind;
  }
}

type Parsed<O, K extends keyof Operation> = O extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** What a handler gets: the principal its auth kind requires and the validated params, query and body. */
export interface RouteInput<O extends Operation> {
  principal: O['auth'] extends 'session' ? Principal : null;
  params: Parsed<O, 'params'>;
  query: Parsed<O, 'query'>;
  body: Parsed<O, 'body'>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A success envelope as a handler gives it: what is beside the status (`data`, a page's token), which route() adds;
 * a handler may still name it. Other answers (the health check's) are given whole.
 */
type Answer<A> = A extends { status: 'SUCCESS' }
  ? [keyof Omit<A, 'status'>] extends [never]
    ? // A success with nothing beside its status: the handler answers nothing.
      // biome-ignore lint/suspicious/noConfusingVoidType: what an async handler without a return statement gives
      void | { status?: 'SUCCESS' }
    : Omit<A, 'status'> & { status?: 'SUCCESS' }
  : A;

/** A JSON answer as the contract declares it, or the reply when the handler sent something else itself. */
type RouteResult<O extends Operation> =
  | (O extends { response: infer S extends z.ZodType } ? Answer<z.input<S>> : never)
  | FastifyReply;

/** Whether the operation answers the success envelope (`status: 'SUCCESS'`), which route() then writes. */
function answersEnvelope(operation: Operation): boolean {
  const status = (operation.response as { shape?: Record<string, unknown> } | undefined)?.shape?.status;
  return status instanceof ZodLiteral && status.values.has('SUCCESS');
}

export interface RouteOptions {
  /** Runs after sign-in and before the input is validated: a caller who may not call learns nothing more. */
  guard?: (principal: Principal) => void;
  /** Fastify route options (rate limits, body parsers) that only this call needs. */
  fastify?: RouteShorthandOptions;
}

/** The auth kind of the declared operation a request was routed to (undefined: no declared route). */
export function routeAuth(request: FastifyRequest): AuthKind | undefined {
  return request.routeOptions.config?.auth;
}

/** `/api/emails/{id}` → `/api/emails/:id`. */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

type Handler<O extends Operation> = (input: RouteInput<O>) => Promise<RouteResult<O>>;

/**
 * Registers one declared operation: principal, validation, the idempotency key of a keyed write (decision 064)
 * and (in tests) the answer's shape in one place, so routes.ts files only call a service and present its result. Curried, `route(app, ctx, op)(handler)`: the
 * operation fixes the handler's types before TypeScript reads the handler (literal answers stay literal).
 */
export function route<const O extends Operation>(
  app: FastifyInstance,
  ctx: AppContext,
  operation: O,
  options: RouteOptions = {},
): (handler: Handler<O>) => void {
  const checkResponses = ctx.config.NODE_ENV === 'test';
  const envelope = answersEnvelope(operation);
  return (handler) => {
    app.route({
      ...options.fastify,
      method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: fastifyPath(operation.path),
      config: {
        ...options.fastify?.config,
        operationId: operation.operationId,
        auth: operation.auth,
      },
      handler: async (request, reply) => {
        const principal = operation.auth === 'session' ? requirePrincipal(request) : null;
        if (principal && options.guard) options.guard(principal);
        const input = {
          principal,
          params: operation.params ? parseInput(operation.params, request.params) : undefined,
          query: operation.query
            ? parseInput(operation.query, request.query)
            : operation.method === 'get'
              ? undefined
              : refuseUndeclared(request.query),
          body: operation.body
            ? parseInput(operation.body, request.body)
            : // An upload reads its own form (and refuses any other body with 415 itself).
              operation.form
              ? undefined
              : refuseUndeclared(request.body),
          request,
          reply,
        } as RouteInput<O>;
        // The status leads the answer, as the spec writes it.
        const answer = async () => {
          const given = await handler(input);
          if (!envelope || given === reply || reply.raw.headersSent) return given;
          return { status: 'SUCCESS', ...(given as object | undefined) };
        };
        const key =
          operation.effect === 'keyed' && !operation.keyField ? idempotencyKeyOf(request) : undefined;
        const result = key
          ? await answerOnce(
              ctx.db,
              {
                key,
                operation: operation.operationId,
                userEmail: principal?.email ?? '',
                request: { params: input.params, query: input.query, body: input.body },
              },
              answer,
            )
          : await answer();
        // A handler that answered itself returns the reply, which is thenable: awaiting it waits until the answer
        // went out and gives undefined. Checking that undefined against the contract would throw after a 200 and
        // log a false error for every streamed page (issue 22 §2).
        if (result === reply || (result === undefined && reply.raw.headersSent)) return reply;
        if (checkResponses && operation.response) {
          // Tests run with this on: every API test also proves its answers match the contract.
          const checked = operation.response.safeParse(result);
          if (!checked.success) {
            throw new Error(
              `${operation.operationId}: answer does not match the contract: ${describeZodError(checked.error)}`,
            );
          }
        }
        return result;
      },
    });
  };
}

/** A server table's calls are always a signed-in user's (queryOperations declares them so). */
type QueryOperation = Operation & { auth: 'session' };
type QueryOperations = { page: QueryOperation; count: QueryOperation; distinct: QueryOperation };
/** A query operation seen without its literal types (the helper presents every resource alike). */
type AnyJsonOperation = QueryOperation & { response: z.ZodType };
type BodyOf<O extends Operation> = Parsed<O, 'body'>;

/**
 * The three calls of a server-side table (page, count, distinct) from their declarations: each answers in the
 * spec's envelope, so features only say how to read their resource for a principal.
 */
export function registerQueryEndpoints<const Q extends QueryOperations>(
  app: FastifyInstance,
  ctx: AppContext,
  operations: Q,
  read: {
    /** The page's rows, or a stream of its whole JSON envelope (large pages, decision 021). */
    page: (
      principal: Principal,
      body: BodyOf<Q['page']>,
    ) => Promise<{ rows: unknown[]; token: string | null } | Readable>;
    count: (principal: Principal, body: BodyOf<Q['count']>) => Promise<number>;
    distinct: (principal: Principal, body: BodyOf<Q['distinct']>) => Promise<unknown[]>;
  },
): void {
  route(
    app,
    ctx,
    operations.page as AnyJsonOperation,
  )(async ({ principal, body, reply }) => {
    const page = await read.page(principal, body as BodyOf<Q['page']>);
    if (page instanceof Readable) return reply.type('application/json; charset=utf-8').send(page);
    return { data: page.rows, token: page.token };
  });
  route(
    app,
    ctx,
    operations.count as AnyJsonOperation,
  )(async ({ principal, body }) => ({ data: await read.count(principal, body as BodyOf<Q['count']>) }));
  route(
    app,
    ctx,
    operations.distinct as AnyJsonOperation,
  )(async ({ principal, body }) => ({ data: await read.distinct(principal, body as BodyOf<Q['distinct']>) }));
}

const registered = new WeakMap<FastifyInstance, { method: string; url: string; operationId?: string }[]>();

/** Records every route the app registers, so a test can hold them equal to the declared operations. */
export function trackRoutes(app: FastifyInstance): void {
  const routes: { method: string; url: string; operationId?: string }[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) {
      // Fastify adds HEAD to every GET by itself.
      if (method !== 'HEAD')
        routes.push({ method, url: options.url, operationId: options.config?.operationId });
    }
  });
}

export function registeredRoutes(app: FastifyInstance) {
  return registered.get(app) ?? [];
}
