import type { z } from 'zod';

/**
 * Who may call an operation: a signed-in user (session cookie or personal API token), an elastic license
 * server (its bearer credential, checked by the feature), a vendor product of the web-license API (its
 * per-product bearer credential, checked by the feature), or anybody.
 */
export type AuthKind = 'session' | 'server-credential' | 'web-credential' | 'public';

/**
 * Answers a call gives that the catalogue cannot derive from its declaration (decision 058), each with when. The
 * catalogue derives the rest: 400 for every call, 401 for signed calls, 403 for a signed-in user's writes
 * (the anti-CSRF header), 413 and 415 for any call but a GET, 503 for every call, and the error envelope for
 * any other failure.
 */
export type DeclaredStatus = 304 | 401 | 403 | 404 | 409 | 410 | 422 | 429 | 503;

/**
 * What calling an operation twice does (decision 064), so the web client knows what it may retry after a
 * timeout or a 5xx: a `read` changes nothing; an `idempotent` write has the same effect however often it is
 * applied (a whole value replaced, a thing deleted, an event recorded once by its own id); a `keyed` write is
 * applied once per idempotency key, the client sending one key per logical call and reusing it on every
 * attempt; a write that is `once` is never retried (its answer carries a secret shown only once, which no
 * replay may store).
 */
export type Effect = 'read' | 'idempotent' | 'keyed' | 'once';

/** The header a `keyed` write's key travels in (IETF draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * One call of the API, declared once: the server registers its route from it (principal, validation of
 * params, query and body, response check in tests), the web calls it typed with `call(operation, body)`, and
 * the OpenAPI document at /api/docs is built from the list of them.
 */
export interface Operation {
  /** Unique, camelCase; the OpenAPI operationId client generators name their functions after. */
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form: path parameters in braces, e.g. `/api/emails/{id}`; each one is a key of `params`. */
  path: string;
  /** One line (OpenAPI summary). */
  summary: string;
  /** What a client developer needs beyond the summary (OpenAPI description; markdown). */
  description: string;
  auth: AuthKind;
  /** Required, so every operation chooses: what a retry of it does (decision 064). */
  effect: Effect;
  /**
   * A `keyed` write whose spec carries its key in the body names that field; its feature claims the key in its
   * own transaction (onceForKey). Every other keyed write takes the key from the Idempotency-Key header and
   * route() claims it.
   */
  keyField?: 'operationKey' | 'orderKey';
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The whole JSON answer (envelope included); absent for answers that are not JSON (`produces`). */
  response?: z.ZodType;
  /** What a 2xx carries when it is not JSON: a text, a file, or a redirect. */
  produces?: 'text/plain' | 'text/javascript' | 'application/pdf' | 'redirect';
  /** A multipart/form-data upload (read by the server's multipart reader, not by `body`): the file part and text fields. */
  form?: { file: string; fields: readonly string[] };
  /**
   * The statuses of `DeclaredStatus` this call answers, each with when; `body` when the answer is not the error
   * envelope (or not only: the answer may be either).
   */
  statuses?: Partial<Record<DeclaredStatus, string | { when: string; body: z.ZodType }>>;
}

/** Keeps the literal types of a declaration (so the server and the web infer bodies and answers from it). */
export function defineOperation<const T extends Operation>(operation: T): T {
  return operation;
}

type Schema<O, K extends keyof Operation> = O extends { [P in K]: infer S extends z.ZodType } ? S : never;

/** What the caller sends as body (before the contract's defaults and trimming). */
export type BodyInput<O extends Operation> = [Schema<O, 'body'>] extends [never]
  ? undefined
  : z.input<Schema<O, 'body'>>;
export type ParamsInput<O extends Operation> = [Schema<O, 'params'>] extends [never]
  ? undefined
  : z.input<Schema<O, 'params'>>;
export type QueryInput<O extends Operation> = [Schema<O, 'query'>] extends [never]
  ? undefined
  : z.input<Schema<O, 'query'>>;
/** The JSON answer of a successful call (text for `produces: 'text/plain'`). */
export type ResponseOf<O extends Operation> = [Schema<O, 'response'>] extends [never]
  ? O extends { produces: 'text/plain' | 'text/javascript' }
    ? string
    : unknown
  : z.output<Schema<O, 'response'>>;

/** Fills the path parameters (`{id}`) of an operation's path; every value is URI-encoded. */
export function operationUrl(
  operation: Operation,
  params?: Record<string, string | number>,
  query?: Record<string, string | number | boolean | undefined>,
): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${operation.operationId}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
