import { apiCatalogue } from '@lp/contract/api-catalogue';
import type { Operation } from '@lp/contract/common/operation';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { trackQueryClient } from './query-clients.ts';

/**
 * Renders `ui` inside the app's providers (theme, queries without retries, modals) at `path`, under a data router
 * as the app's (a leave guard blocks navigation only there; `ui` may hold its own `<Routes>`). `location()` gives
 * the router's current path (where the screen sent the user, e.g. `/nopermissions`).
 */
export function renderScreen(ui: ReactNode, path = '/') {
  const queryClient = trackQueryClient(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  const result = render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider modalProps={{ closeButtonProps: { 'aria-label': 'Close' } }}>
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, location: () => router.state.location.pathname };
}

/** The declared operation a "METHOD /path" names (path parameters filled in), or undefined. */
function operationOf(key: string): Operation | undefined {
  const [method, pathname] = key.split(' ');
  return apiCatalogue.find(
    (o) =>
      o.method.toUpperCase() === method &&
      new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(pathname ?? ''),
  );
}

/** A success answer with fields beside `data` (a page's `token`): `serveApi({ key: withFields(rows, { token: null }) })`. */
class AnswerWithFields {
  readonly data: unknown;
  readonly fields: Record<string, unknown>;

  constructor(data: unknown, fields: Record<string, unknown>) {
    this.data = data;
    this.fields = fields;
  }
}
export const withFields = (data: unknown, fields: Record<string, unknown>) =>
  new AnswerWithFields(data, fields);

/**
 * A FAILURE answer (spec 000 §4: `{ status: 'FAILURE', err, code }`) with its HTTP status:
 * `serveApi({ key: refused(403, messages.noPermission) })`. Refusals are not checked against the success schema.
 */
class Refusal {
  readonly status: number;
  readonly err: string;
  readonly code?: string;

  constructor(status: number, err: string, code?: string) {
    this.status = status;
    this.err = err;
    this.code = code;
  }
}
export const refused = (status: number, err: string, code?: string) => new Refusal(status, err, code);

/** An answer that is not the JSON envelope (a file, a page), as it is: `raw(200, 'text/html', '<html>…')`. */
class RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;

  constructor(status: number, contentType: string, body: string) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
  }
}
export const raw = (status: number, contentType: string, body: string) =>
  new RawAnswer(status, contentType, body);

/** An answer given only once `until` settles, so a screen's loading state can be seen: `later(data, gate)`. */
class LaterAnswer {
  readonly answer: unknown;
  readonly until: Promise<unknown>;

  constructor(answer: unknown, until: Promise<unknown>) {
    this.answer = answer;
    this.until = until;
  }
}
export const later = (answer: unknown, until: Promise<unknown>) => new LaterAnswer(answer, until);

/** An answer made from the request's JSON body (a report of the pool asked for): `byBody((body) => data)`. */
class BodyAnswer {
  readonly answer: (body: unknown) => unknown;

  constructor(answer: (body: unknown) => unknown) {
    this.answer = answer;
  }
}
export const byBody = (answer: (body: unknown) => unknown) => new BodyAnswer(answer);

const successBody = (answer: unknown) =>
  answer instanceof AnswerWithFields
    ? { status: 'SUCCESS', data: answer.data, ...answer.fields }
    : { status: 'SUCCESS', data: answer };

/**
 * Answers the app's API calls in place of the server: `answers` maps "METHOD /path" to the `data` of a success
 * answer (spec 000 §4: `{ status: 'SUCCESS', data }`). Each answer must be one the contract declares for that
 * call (its response schema), so a screen is never tested against a shape the server cannot send. Any other call
 * fails the test. An answer may also be `refused(status, err)`, `raw(status, type, body)` or
 * `later(answer, gate)`. Returns the calls made; calling it again replaces the answers.
 */
export function serveApi(answers: Record<string, unknown>) {
  for (const [key, given] of Object.entries(answers)) {
    const operation = operationOf(key);
    if (!operation) throw new Error(`No declared operation answers ${key}`);
    const data = given instanceof LaterAnswer ? given.answer : given;
    // Made per call: checked against the contract when it is made.
    if (data instanceof Refusal || data instanceof RawAnswer || data instanceof BodyAnswer) continue;
    const checked = operation.response?.safeParse(successBody(data));
    if (checked && !checked.success)
      throw new Error(
        `The answer given for ${key} is not what the contract declares: ${checked.error.message}`,
      );
  }
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://portal.test');
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    calls.push(key);
    if (!(key in answers)) throw new Error(`Unexpected call: ${key}`);
    let answer = answers[key];
    if (answer instanceof LaterAnswer) {
      await answer.until;
      answer = answer.answer;
    }
    if (answer instanceof BodyAnswer) {
      answer = answer.answer(init?.body ? JSON.parse(String(init.body)) : undefined);
      const checked = operationOf(key)?.response?.safeParse(successBody(answer));
      if (checked && !checked.success)
        throw new Error(
          `The answer made for ${key} is not what the contract declares: ${checked.error.message}`,
        );
    }
    if (answer instanceof RawAnswer)
      return new Response(answer.body, {
        status: answer.status,
        headers: { 'content-type': answer.contentType },
      });
    const [status, body] =
      answer instanceof Refusal
        ? [answer.status, { status: 'FAILURE', err: answer.err, code: answer.code }]
        : [200, successBody(answer)];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}
