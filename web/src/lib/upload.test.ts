import { licenseServersApi } from '@lp/contract/license-servers/api';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';
import { callMultipart } from './upload.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The real client over a recording fetch that answers from a list, one answer per attempt. */
function recordingClient(answers: Response[]) {
  const sent: Sent[] = [];
  const client = createApiClient({
    fetch: async (input, init) => {
      sent.push({
        url: String(input),
        method: init?.method ?? 'GET',
        headers: init?.headers as Record<string, string>,
        body: init?.body,
      });
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer;
    },
    sleep: async () => {},
    onUnauthenticated: () => {},
  });
  return { client, sent };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const host = {
  serverName: 'licsrv09',
  serverId: '0050569a1b2c',
  serverIdType: 'ETHERNET',
  quorum: 'licsrv09',
  numServers: 1,
};

describe('callMultipart(operation, fields, files)', () => {
  it('posts a multipart form with the fields before the file, the anti-CSRF header and no JSON content type', async () => {
    const { client, sent } = recordingClient([json(200, { status: 'SUCCESS', data: host })]);
    const file = new File(['licsrv09 0050569a1b2c ETHERNET\n'], 'hosts.txt', { type: 'text/plain' });
    const answer = await callMultipart(
      licenseServersApi.upload,
      { customerNumber: '1000123' },
      { file },
      { client },
    );
    expect(answer.data).toEqual(host);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('/api/uploadserverid');
    expect(sent[0].method).toBe('POST');
    expect(sent[0].headers['x-lp-csrf']).toBe('1');
    expect(sent[0].headers['content-type']).toBeUndefined();
    const form = sent[0].body as FormData;
    expect([...form.keys()]).toEqual(['customerNumber', 'file']);
    expect(form.get('customerNumber')).toBe('1000123');
    const sentFile = form.get('file') as File;
    expect(sentFile.name).toBe('hosts.txt');
    expect(await sentFile.text()).toBe('licsrv09 0050569a1b2c ETHERNET\n');
  });

  it("gives the server's refusal text and does not retry a 4xx", async () => {
    const { client, sent } = recordingClient([json(400, { status: 'FAILURE', err: 'Line 1: bad host' })]);
    const failure = callMultipart(
      licenseServersApi.upload,
      { customerNumber: '1000123' },
      { file: new Blob(['x']) },
      { client },
    );
    await expect(failure).rejects.toEqual(new ApiError(400, 'Line 1: bad host'));
    expect(sent).toHaveLength(1);
  });

  it('retries a 5xx with the same form', async () => {
    const { client, sent } = recordingClient([
      json(503, { status: 'FAILURE', err: 'busy' }),
      json(200, { status: 'SUCCESS', data: host }),
    ]);
    await callMultipart(
      licenseServersApi.upload,
      { customerNumber: '1000123' },
      { file: new Blob(['x']) },
      { client },
    );
    expect(sent).toHaveLength(2);
    expect((sent[1].body as FormData).get('customerNumber')).toBe('1000123');
  });
});
