import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function setup(responses: Array<Response | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const waits: number[] = [];
  const onUnauthenticated = vi.fn();
  const client = createApiClient({
    fetch: async (url, init) => {
      calls.push({ url: String(url), init: init ?? {} });
      const next = responses.shift();
      if (!next) throw new Error('no more responses');
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    onUnauthenticated,
  });
  return { client, calls, waits, onUnauthenticated };
}

describe('api client', () => {
  it('sends the anti-CSRF header, same-origin credentials and a JSON body', async () => {
    const { client, calls } = setup([json(200, { status: 'SUCCESS', data: 3 })]);
    await expect(client('/api/getaccounts/count', { body: { filter: null } })).resolves.toEqual({
      status: 'SUCCESS',
      data: 3,
    });
    const headers = calls[0].init.headers as Record<string, string>;
    expect(headers['x-lp-csrf']).toBe('1');
    expect(calls[0].init.credentials).toBe('same-origin');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBe('{"filter":null}');
  });

  it('retries 5xx and network failures with 100 ms x attempt backoff, then succeeds', async () => {
    const { client, calls, waits } = setup([
      json(503, {}),
      new TypeError('network'),
      json(500, { status: 'FAILURE', err: 'x' }),
      json(200, { status: 'SUCCESS' }),
    ]);
    await client('/api/x');
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([100, 200, 300]);
  });

  it('retries a 200 whose body breaks off mid-way (a large page whose stream failed)', async () => {
    const cut = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"status":"SUCCESS","data":[{"a":1},'));
          controller.error(new TypeError('terminated'));
        },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
    const { client, calls } = setup([cut, json(200, { status: 'SUCCESS', data: [{ a: 1 }], token: null })]);
    await expect(client('/api/fetchUsage', { body: {} })).resolves.toEqual({
      status: 'SUCCESS',
      data: [{ a: 1 }],
      token: null,
    });
    expect(calls).toHaveLength(2);
  });

  it('gives up after 5 attempts with the spec message', async () => {
    const { client, calls } = setup(Array.from({ length: 6 }, () => json(502, {})));
    await expect(client('/api/x')).rejects.toMatchObject({ err: 'unable to fetch data after 5 attempts' });
    expect(calls).toHaveLength(5);
  });

  it('does not retry a 4xx and throws ApiError(status, err)', async () => {
    const { client, calls } = setup([
      json(403, {
        status: 'FAILURE',
        err: 'You do not have enough permissions for such operation.',
        code: 'FORBIDDEN',
      }),
    ]);
    const error = await client('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      err: 'You do not have enough permissions for such operation.',
      code: 'FORBIDDEN',
    });
    expect(calls).toHaveLength(1);
  });

  it('treats a 200 FAILURE answer as an error without retrying', async () => {
    const { client, calls } = setup([json(200, { status: 'FAILURE', err: 'No account found.' })]);
    await expect(client('/api/x')).rejects.toMatchObject({ status: 200, err: 'No account found.' });
    expect(calls).toHaveLength(1);
  });

  it('hands a 401 to the sign-in handler once', async () => {
    const { client, onUnauthenticated, calls } = setup([
      json(401, { status: 'FAILURE', err: 'Unauthorised' }),
    ]);
    await expect(client('/api/getUserDetails')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
  });

  it('reads plain-text answers', async () => {
    const { client } = setup([new Response('uat', { status: 200 })]);
    await expect(client<string>('/api/environment', { as: 'text' })).resolves.toBe('uat');
  });
});
