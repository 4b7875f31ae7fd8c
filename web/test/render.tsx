import { apiCatalogue } from '@lp/contract/api-catalogue';
import type { Operation } from '@lp/contract/common/operation';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

/** Renders `ui` inside the app's providers (theme, queries without retries, modals) at `path`. */
export function renderScreen(ui: ReactNode, path = '/') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider modalProps={{ closeButtonProps: { 'aria-label': 'Close' } }}>
          <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
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
  constructor(
    readonly data: unknown,
    readonly fields: Record<string, unknown>,
  ) {}
}
export const withFields = (data: unknown, fields: Record<string, unknown>) =>
  new AnswerWithFields(data, fields);

const successBody = (answer: unknown) =>
  answer instanceof AnswerWithFields
    ? { status: 'SUCCESS', data: answer.data, ...answer.fields }
    : { status: 'SUCCESS', data: answer };

/**
 * Answers the app's API calls in place of the server: `answers` maps "METHOD /path" to the `data` of a success
 * answer (spec 000 §4: `{ status: 'SUCCESS', data }`). Each answer must be one the contract declares for that
 * call (its response schema), so a screen is never tested against a shape the server cannot send. Any other call
 * fails the test. Returns the calls made.
 */
export function serveApi(answers: Record<string, unknown>) {
  for (const [key, data] of Object.entries(answers)) {
    const operation = operationOf(key);
    if (!operation) throw new Error(`No declared operation answers ${key}`);
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
    return new Response(JSON.stringify(successBody(answers[key])), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}
