import { alertsApi } from '@lp/contract/alerts/api';
import { clsApi } from '@lp/contract/cls/api';
import { platformApi } from '@lp/contract/platform/api';
import { describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from './api-client.ts';
import { call } from './call.ts';

/** The real client over a recording fetch: what goes on the wire for each declared operation. */
function recordingClient(answer: (url: string) => Response) {
  const sent: { url: string; method: string; body: unknown }[] = [];
  const client: ApiClient = createApiClient({
    fetch: async (input, init) => {
      const url = String(input);
      sent.push({
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return answer(url);
    },
    sleep: async () => {},
    onUnauthenticated: () => {},
  });
  return { client, sent };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('call(operation, body)', () => {
  it('fills path parameters, uses the declared method and sends the body', async () => {
    const { client, sent } = recordingClient(() => json({ status: 'SUCCESS', data: { id: 7 } }));
    const input = { category: 'INFO' as const, description: 'Maintenance', service: ['Portal'] };
    await call(alertsApi.edit, input, { params: { id: 7 }, client });
    expect(sent).toEqual([{ url: '/api/notifications/admin/7', method: 'PUT', body: input }]);
  });

  it('encodes query values and path parameters', async () => {
    const { client, sent } = recordingClient(() => json({ status: 'SUCCESS', data: [] }));
    await call(clsApi.listCredentials, undefined, { query: { customerNumber: 'A&B 1' }, client });
    await call(clsApi.revokeCredential, undefined, { params: { id: 'a/b' }, client });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/cls/credentials?customerNumber=A%26B+1',
      'DELETE /api/cls/credentials/a%2Fb',
    ]);
  });

  it('reads text operations as text', async () => {
    const { client } = recordingClient(() => new Response('uat', { status: 200 }));
    await expect(call(platformApi.environment, undefined, { client })).resolves.toBe('uat');
  });
});
