import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/free-port.ts';
import { type ServerProcess, startServer, waitReady } from '../../test/server-process.ts';

/*
 * Optional OpenTelemetry tracing (decision 055): the real server process (the SDK patches modules for the whole
 * process) sends its spans over OTLP/HTTP to a receiver here when OTEL_EXPORTER_OTLP_ENDPOINT is set, and sends
 * nothing when it is not.
 */

interface Attributes {
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface Span extends Attributes {
  name: string;
}

/** What the receiver got: each POST's path, and its spans with the service that sent them. */
const received: { path: string; spans: (Span & { service: unknown })[] }[] = [];
let onPost: () => void = () => {};
let receiver: http.Server;
let untraced: ReturnType<typeof start>;
let traced: ReturnType<typeof start>;
const dirs: string[] = [];
const servers: ServerProcess[] = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      // Anything but traces (metrics, logs) would be a path of its own, and fail the test on that.
      const parsed = request.url === '/v1/traces' ? JSON.parse(body) : { resourceSpans: [] };
      const batches = parsed.resourceSpans as { resource: Attributes; scopeSpans: { spans: Span[] }[] }[];
      const spans = batches.flatMap((r) =>
        r.scopeSpans.flatMap((s) =>
          s.spans.map((span) => ({ ...span, service: attribute(r.resource, 'service.name') })),
        ),
      );
      received.push({ path: request.url ?? '', spans });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      onPost();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Both servers start at once (each takes seconds): one switched off, one sending to the receiver.
  untraced = start({
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SDK_DISABLED: 'true',
    OTEL_SERVICE_NAME: 'untraced',
  });
  traced = start({
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SERVICE_NAME: 'traced',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  await Promise.all([untraced, traced]);
}, 120_000);

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await new Promise((resolve) => receiver.close(resolve));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-tracing-'));
  dirs.push(dir);
  const port = await freePort();
  const server = startServer({ DATA_DIR: dir, PORT: String(port), JOBS_ENABLED: 'false', ...env });
  servers.push(server);
  await waitReady(server);
  return { server, base: `http://127.0.0.1:${port}` };
}

function attribute(item: Attributes, key: string) {
  return Object.values(item.attributes.find((a) => a.key === key)?.value ?? {})[0];
}

describe('OpenTelemetry tracing', { timeout: 60_000 }, () => {
  it('is off when switched off: a server given the endpoint with OTEL_SDK_DISABLED=true sends nothing', async () => {
    const { server, base } = await untraced;
    expect((await fetch(`${base}/api/config`)).status).toBe(200);
    server.child.kill('SIGTERM');
    // Stopped gracefully: anything batched would have been sent by now.
    expect(await server.exited).toBe(0);
    expect(received.flatMap((r) => r.spans).filter((s) => s.service === 'untraced')).toEqual([]);
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT, each request is a span named by its route and operation', async () => {
    const { base } = await traced;
    expect((await fetch(`${base}/api/config`)).status).toBe(200);
    const served = (span: Span) => attribute(span, 'http.route') === '/api/config';
    while (!received.some((r) => r.spans.some(served))) await new Promise<void>((r) => (onPost = r));
    // Traces only: the metrics are /metrics' (no OTLP metrics or logs).
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    const spans = received.flatMap((r) => r.spans).filter(served);
    expect(spans.every((s) => s.service === 'traced')).toBe(true);
    // The HTTP server's span and the framework's request span, which names the contract's operation.
    expect(spans.map((s) => s.name)).toContain('GET /api/config');
    expect(spans.map((s) => attribute(s, 'lp.operation'))).toContain('getClientConfig');
    expect(spans.every((s) => attribute(s, 'http.response.status_code') !== 500)).toBe(true);
  });
});
