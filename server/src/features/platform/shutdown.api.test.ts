import net from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { platformApi } from '@lp/contract/platform/api';
import { expect } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiTest } from '../../../test/api-fixture.ts';

/*
 * Each test builds, listens on and closes an app of its own (the closing is what it tests), so it takes only the
 * database from the fixture.
 */
const test = apiTest.extend('listening', { scope: 'file' }, async ({ database }) => {
  /** An app with this shutdown grace, listening, and a client connected to it. */
  return async (graceMs: number) => {
    const app = await createTestApp(database, { SHUTDOWN_GRACE_MS: String(graceMs) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const connect = async () => {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      return socket;
    };
    return { app, connect };
  };
});

test('shuts down within the grace period although clients keep connections open', async ({ listening }) => {
  const { app, connect } = await listening(300);

  // A client that connects and never sends a request, and one whose keep-alive connection stays open.
  const silent = await connect();
  const kept = await connect();
  const answered = new Promise<string>((resolve) => kept.once('data', (chunk) => resolve(chunk.toString())));
  kept.write(`GET ${platformApi.health.path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  expect(await answered).toMatch(/^HTTP\/1\.1 200/);

  const closed = Promise.all(
    [silent, kept].map((socket) => new Promise((resolve) => socket.once('close', resolve))),
  );
  const started = Date.now();
  await app.close();
  // Without the cut, Node waits for the 72 s keep-alive timeout before close resolves.
  expect(Date.now() - started).toBeLessThan(10_000);
  await closed;
});

test('answers a request that arrives while it closes with 503 in the error envelope', async ({
  listening,
}) => {
  const { app, connect } = await listening(2000);
  const client = await connect();
  let answer = '';
  client.on('data', (chunk) => {
    answer += chunk.toString();
  });
  const ended = new Promise((resolve) => client.once('close', resolve));
  // The request line is sent before closing starts, the rest of the request after.
  client.write(`GET ${platformApi.config.path} HTTP/1.1\r\n`);
  const closed = app.close();
  client.write('Host: localhost\r\n\r\n');
  await Promise.all([closed, ended]);
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 503/);
  expect(head.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(body)).toEqual({ status: 'FAILURE', err: messages.shuttingDown, code: 'UNAVAILABLE' });
});
