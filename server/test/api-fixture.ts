import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type BodyInput,
  type Operation,
  operationUrl,
  type ParamsInput,
  type QueryInput,
  type ResponseOf,
} from '@lp/contract/common/operation';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, test } from 'vitest';
import { addContact, buildAccount } from '../harness/factories.ts';
import { freePort } from '../harness/free-port.ts';
import { signInAs } from '../harness/sign-in.ts';
import { createTestApp } from '../harness/test-app.ts';
import { loadConfig } from '../src/platform/config.ts';
import type { AppContext } from '../src/platform/context.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';

/** Someone calling the API: a signed-in user (their session's headers) or `anonymous`. */
export interface Caller {
  email: string;
  userId: string;
  headers: Record<string, string>;
}

export const anonymous: Caller = { email: '', userId: '', headers: {} };

/** A caller that presents a bearer credential (a license server's, a personal API token) instead of a session. */
export function bearer(token: string): Caller {
  return { email: '', userId: '', headers: { authorization: `Bearer ${token}` } };
}

/** The accounts of the usual cast: Acme, whose people the tests act as, and Other, whose admin is an outsider. */
export const acme = { customerNumber: '4100001', name: 'Acme' } as const;
export const other = { customerNumber: '4100002', name: 'Other' } as const;

/**
 * The usual cast, signed in: Acme's admin (boss) and viewer (reader), Other's admin (outsider, who must learn
 * nothing of Acme), and vendor staff by role.
 */
export interface Cast {
  boss: Caller;
  reader: Caller;
  outsider: Caller;
  busops: Caller;
  support: Caller;
  sales: Caller;
}

type IsNone<T> = [T] extends [undefined] ? true : false;

/**
 * What a call sends: the body, or for an operation with path parameters or a query string, its parts. A
 * refusal may send anything (a wrong type, a missing field), so `refused` takes it untyped.
 */
export type InputOf<O extends Operation> =
  IsNone<ParamsInput<O>> extends true
    ? IsNone<QueryInput<O>> extends true
      ? BodyInput<O>
      : { query?: QueryInput<O>; body?: BodyInput<O> }
    : { params: ParamsInput<O>; query?: QueryInput<O>; body?: BodyInput<O> };

/** The error envelope of a refusal. */
export interface Refusal {
  status: 'FAILURE';
  err: string;
  code?: string;
}

export interface CallOptions {
  /** Headers besides the caller's (an If-None-Match, an Idempotency-Key, a missing anti-CSRF header's override). */
  headers?: Record<string, string>;
}

/**
 * A multipart/form-data body as a browser sends it: the text fields, then the file part (named `file`) when
 * there is one. `call` and `refused` send it with its content type; `upload` is `ok` for it.
 */
export class Multipart {
  readonly payload: Buffer;
  readonly contentType: string;

  constructor(
    fields: Record<string, string>,
    file?: { name: string; content: string | Buffer },
    boundary = '----lp-test-boundary',
  ) {
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields))
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    if (file)
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
        Buffer.from('\r\n'),
      );
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    this.payload = Buffer.concat(parts);
    this.contentType = `multipart/form-data; boundary=${boundary}`;
  }
}

/** The declared operations, called through app.inject: no path written by hand, every answer typed and checked. */
export interface Api {
  /** The raw answer, for what ok/refused do not cover (headers, streams, text and files). */
  call<const O extends Operation>(
    who: Caller,
    operation: O,
    input?: InputOf<O> | unknown,
    options?: CallOptions,
  ): Promise<LightMyRequestResponse>;
  /** Expects 200 and an answer that matches the operation's response schema; answers it, typed. */
  ok<const O extends Operation>(
    who: Caller,
    operation: O,
    input: InputOf<O>,
    options?: CallOptions,
  ): Promise<ResponseOf<O>>;
  /** Expects the error envelope with `status` (any 4xx when not given); answers it. */
  refused<const O extends Operation>(
    who: Caller,
    operation: O,
    input: InputOf<O> | unknown,
    status?: number,
    options?: CallOptions,
  ): Promise<Refusal>;
  /** `ok` for an upload (an operation declared with `form`): sends the form, answers the checked answer, typed. */
  upload<const O extends Operation>(
    who: Caller,
    operation: O,
    form: Multipart,
    options?: CallOptions,
  ): Promise<ResponseOf<O>>;
}

/**
 * How a call reads in a test's title: its method and the URL it goes to (`GET /api/getaccountinfo/1000001`), for
 * a table of calls (`it.for(calls.map(...))('anonymous $call gets 401')`). `input` as `api.call` takes it.
 */
export function callName(operation: Operation, input?: unknown): string {
  const { params, query } = (operation.params || operation.query ? (input ?? {}) : {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, string>;
  };
  return `${operation.method.toUpperCase()} ${operationUrl(operation, params, query)}`;
}

export function apiOf(app: FastifyInstance): Api {
  const call: Api['call'] = (who, operation, input, options = {}) => {
    const parts = (operation.params || operation.query ? (input ?? {}) : { body: input }) as {
      params?: Record<string, string | number>;
      query?: Record<string, string>;
      body?: unknown;
    };
    const form = parts.body instanceof Multipart ? parts.body : undefined;
    return app.inject({
      method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: operationUrl(operation, parts.params, parts.query),
      headers: { ...who.headers, ...(form && { 'content-type': form.contentType }), ...options.headers },
      payload: form ? form.payload : (parts.body as object | undefined),
    });
  };
  const api: Api = {
    call,
    async ok(who, operation, input, options) {
      const res = await call(who, operation, input, options);
      expect(res.statusCode, `${operation.operationId}: ${res.body}`).toBe(200);
      const answer = res.json();
      if (operation.response) {
        const checked = operation.response.safeParse(answer);
        expect(
          checked.error,
          `${operation.operationId}: the answer does not match the contract`,
        ).toBeUndefined();
      }
      // The answer as sent (not the schema's output), so a test compares exactly what a client receives.
      return answer;
    },
    upload: (who, operation, form, options) => api.ok(who, operation, form as never, options),
    async refused(who, operation, input, status, options) {
      const res = await call(who, operation, input, options);
      if (status === undefined) {
        expect(res.statusCode, `${operation.operationId}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${operation.operationId}: ${res.body}`).toBeLessThan(500);
      } else expect(res.statusCode, `${operation.operationId}: ${res.body}`).toBe(status);
      const refusal = res.json() as Refusal;
      expect(refusal.status).toBe('FAILURE');
      expect(typeof refusal.err).toBe('string');
      return refusal;
    },
  };
  return api;
}

/**
 * For an app reached at its PUBLIC_URL (the built-in IdP's redirects and discovery name it): a free port and the
 * URL on it, to spread into a file's `appEnv`; the `publicUrl` fixture then listens there.
 */
export async function ownPublicUrl(): Promise<{ PORT: string; PUBLIC_URL: string }> {
  const port = await freePort();
  return { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` };
}

/**
 * The API test of a file (decision 065): a migrated database of its own on the engine the project runs, the real
 * app on it, `api` to call declared operations, `cast` signed in on first use and `signIn` for anyone else
 * (`baseUrl` when a test needs the app listening, `tempDir` a folder of its own, `appContext` what jobs are
 * given). All are file-scoped: built once for the file, when a hook or test first asks, and closed after its last
 * test.
 */
const sharedTest = test
  .extend('appEnv', { scope: 'file' }, {} as Record<string, string>)
  /**
   * A folder of the file's own (a DATA_DIR, checkpoint or upload folder a file names in its `appEnv`), removed
   * after the file's last test.
   */
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('tempDir', { scope: 'file' }, async ({}, { onCleanup }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-api-test-'));
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('database', { scope: 'file' }, async ({}, { onCleanup }) => {
    const database: TestDatabase = await createTestDatabase();
    onCleanup(() => database.close());
    return database;
  })
  .extend('app', { scope: 'file' }, async ({ database, appEnv }, { onCleanup }) => {
    const app = await createTestApp(database, appEnv);
    onCleanup(() => app.close());
    return app;
  })
  .extend('api', { scope: 'file' }, async ({ app }) => apiOf(app))
  /**
   * What a job, the outbox or a service is given outside a request (AppContext): a test configuration with the
   * file's appEnv, the file's database, the app's log and a zero secret. A file adds what else its code reads
   * (`({ appContext, database }) => ({ ...appContext, metrics: createMetrics(database) })`).
   */
  .extend(
    'appContext',
    { scope: 'file' },
    async ({ app, appEnv, database }): Promise<AppContext> => ({
      config: loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir(), ...appEnv }),
      database,
      db: database.db,
      secret: Buffer.alloc(32),
      log: app.log,
    }),
  )
  /**
   * The app listening where its `appEnv` says (PORT, PUBLIC_URL from `ownPublicUrl()`): its PUBLIC_URL. For a
   * file that signs in through the built-in IdP's pages; such a file does not also ask for `baseUrl`.
   */
  .extend('publicUrl', { scope: 'file' }, async ({ app, appEnv }) => {
    await app.listen({ host: '127.0.0.1', port: Number(appEnv.PORT) });
    return appEnv.PUBLIC_URL;
  })
  /**
   * The app listening on a free local port, for a test that needs a real HTTP client or socket (streamed answers,
   * encodings, a reader that stops reading): its base URL, `http://127.0.0.1:{port}`. Closed with the app.
   */
  .extend('baseUrl', { scope: 'file' }, async ({ app }) => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  })
  .extend('signIn', { scope: 'file' }, async ({ database }) => {
    return async (
      email: string,
      options: { vendorRoles?: string[]; name?: string } = {},
    ): Promise<Caller> => {
      const { userId, headers } = await signInAs(database.db, email, options);
      return { email, userId, headers };
    };
  })
  .extend('cast', { scope: 'file' }, async ({ database, signIn }): Promise<Cast> => {
    const { db } = database;
    await buildAccount(db, acme);
    await buildAccount(db, other);
    await addContact(db, acme.customerNumber, 'boss@acme.example', contactRoles.admin);
    await addContact(db, acme.customerNumber, 'reader@acme.example', contactRoles.viewer);
    await addContact(db, other.customerNumber, 'outsider@other.example', contactRoles.admin);
    const staff = (role: 'busops' | 'support' | 'sales') =>
      signIn(`${role}@vendor.example`, { vendorRoles: [role] });
    return {
      boss: await signIn('boss@acme.example'),
      reader: await signIn('reader@acme.example'),
      outsider: await signIn('outsider@other.example'),
      busops: await staff('busops'),
      support: await staff('support'),
      sales: await staff('sales'),
    };
  });

/**
 * Vitest's `override` at a file's top level replaces the fixtures of the test it is called on, and the API files
 * share this module (isolate: false): `apiTest.override('appEnv', …)` in one file reached every later file of its
 * worker (another file's PIN key sealed the secrets, answering 503 depending on which files a worker ran). An
 * override therefore starts from a copy: it holds for the file that makes it, and `apiTest` stays as declared.
 */
export const apiTest: typeof sharedTest = Object.assign(sharedTest, {
  override: ((...args: unknown[]) => {
    const copy = sharedTest.extend({});
    return Reflect.apply(copy.override, copy, args);
  }) as typeof sharedTest.override,
});
