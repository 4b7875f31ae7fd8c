import net from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

it('shuts down within the grace period although clients keep connections open', async () => {
  const app = await createTestApp(database, { SHUTDOWN_GRACE_MS: '300' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;

  // A client that connects and never sends a request, and one whose keep-alive connection stays open.
  const silent = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => silent.once('connect', resolve));
  const kept = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => kept.once('connect', resolve));
  const answered = new Promise<string>((resolve) => kept.once('data', (chunk) => resolve(chunk.toString())));
  kept.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
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

it('answers a request that arrives while it closes with 503 in the error envelope', async () => {
  const app = await createTestApp(database, { SHUTDOWN_GRACE_MS: '2000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  let answer = '';
  client.on('data', (chunk) => {
    answer += chunk.toString();
  });
  const ended = new Promise((resolve) => client.once('close', resolve));
  // The request line is sent before closing starts, the rest of the request after.
  client.write('GET /api/config HTTP/1.1\r\n');
  const closed = app.close();
  client.write('Host: localhost\r\n\r\n');
  await Promise.all([closed, ended]);
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 503/);
  expect(head.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(body)).toEqual({ status: 'FAILURE', err: messages.shuttingDown, code: 'UNAVAILABLE' });
});
