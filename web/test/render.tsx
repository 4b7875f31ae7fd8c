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

/**
 * Answers the app's API calls in place of the server: `answers` maps "METHOD /path" to the `data` of a success
 * answer (spec 000 §4: `{ status: 'SUCCESS', data }`). Any other call fails the test. Returns the calls made.
 */
export function serveApi(answers: Record<string, unknown>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://portal.test');
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    calls.push(key);
    if (!(key in answers)) throw new Error(`Unexpected call: ${key}`);
    return new Response(JSON.stringify({ status: 'SUCCESS', data: answers[key] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}
