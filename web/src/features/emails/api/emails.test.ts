import { describe, expect, it } from 'vitest';
import type { ApiClient, RequestOptions } from '../../../lib/api-client.ts';
import { emailsClient } from './emails.ts';

describe('emailsClient', () => {
  const recorder = () => {
    const calls: { path: string; options?: RequestOptions }[] = [];
    const client = (async (path: string, options?: RequestOptions) => {
      calls.push({ path, options });
      return { status: 'SUCCESS', data: [] };
    }) as ApiClient;
    return { calls, client };
  };

  it('adds the customer number to every data-service call', async () => {
    const { calls, client } = recorder();
    await emailsClient('1000123', client)('/api/getemails/count', { method: 'POST', body: {} });
    expect(calls[0]).toEqual({
      path: '/api/getemails/count',
      options: { method: 'POST', body: { customerNumber: '1000123', filter: undefined } },
    });
  });

  it('compares the Date column by its displayed text and leaves other columns alone', async () => {
    const { calls, client } = recorder();
    await emailsClient('1000123', client)('/api/getemails', {
      method: 'POST',
      body: {
        limit: 100,
        filter: {
          condition: 'ALL',
          criteria: [
            { name: 'date', method: 'CONTAINS', value: '2026-03', casefold: true },
            { name: 'subject', method: 'EQUALS', value: 'x', casefold: true },
          ],
        },
      },
    });
    expect(calls[0].options?.body).toEqual({
      customerNumber: '1000123',
      limit: 100,
      filter: {
        condition: 'ALL',
        criteria: [
          { name: 'date', method: 'CONTAINS', value: '2026-03', casefold: true, tostring: true },
          { name: 'subject', method: 'EQUALS', value: 'x', casefold: true },
        ],
      },
    });
  });
});
