import net from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { loadConfig } from '../platform/config.ts';
import { METRICS_DATABASE_DEADLINE_MS } from '../platform/metrics.ts';
import { ANSWER_GRACE_MS, type Database, openPostgres, timeoutsOf } from './database.ts';

/**
 * Decision 043: a database that stops answering is an outage, not a hang. On PostgreSQL the test puts a TCP
 * relay between the server and the database and turns it into a black hole (connections stay open, bytes are
 * dropped), with the product's default deadlines. PGlite runs inside the process (no network to hang, and a
 * statement cannot be interrupted), so there the readiness check's own deadline is what applies: it answers
 * 503 in time while a transaction holds the engine.
 */

const postgres = process.env.TEST_ENGINE === 'postgres';
const metricsToken = 'hung-database-metrics-token';
const defaults = loadConfig({});

interface Relay {
  port: number;
  blackHole(): void;
  forward(): void;
  close(): Promise<void>;
}

/** Forwards TCP connections to `target`; as a black hole it keeps every socket open and drops every byte. */
async function startRelay(host: string, port: number): Promise<Relay> {
  let forwarding = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) sockets.add(s);
    client.on('data', (d) => forwarding && upstream.write(d));
    upstream.on('data', (d) => forwarding && client.write(d));
    const close = () => {
      for (const s of [client, upstream]) {
        s.destroy();
        sockets.delete(s);
      }
    };
    for (const s of [client, upstream]) s.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    blackHole: () => {
      forwarding = false;
    },
    forward: () => {
      forwarding = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let database: TestDatabase;
let relay: Relay | undefined;
let relayed: Database | undefined;
let app: FastifyInstance;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ headers } = await signInAs(database.db, 'staff@vendor.example', { vendorRoles: ['busops'] }));
  let served: Database = database;
  if (postgres) {
    const url = new URL(database.url!);
    relay = await startRelay(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${relay.port}`;
    relayed = await openPostgres(url.toString(), defaults.DATABASE_POOL_MAX, timeoutsOf(defaults));
    served = relayed;
  }
  app = await createTestApp(served, { METRICS_TOKEN: metricsToken });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await relayed?.close();
  await relay?.close();
  await database?.close();
});

/** A request and how long it took to be answered, in ms. */
async function timed(path: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const body = await res.json();
  return { status: res.status, body, ms: performance.now() - started };
}
const ready = () => timed('/readyz');
const signedInCall = () =>
  timed('/api/getaccounts', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });

/** Holds PGlite's one connection in a transaction until the returned function is called. */
async function holdPglite(): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding!: () => void;
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const transaction = database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    holding();
    await released;
  });
  await held;
  return async () => {
    release();
    await transaction;
  };
}

/** The engine stops answering until the returned function is called: a black hole, or PGlite held. */
async function stopAnswering(): Promise<() => Promise<void>> {
  if (!postgres) return holdPglite();
  relay!.blackHole();
  return async () => relay!.forward();
}

// The statement deadline plus the client's grace, and scheduling slack for a loaded 2-core machine.
const callWithin = defaults.DATABASE_STATEMENT_TIMEOUT_MS + ANSWER_GRACE_MS + 1500;
const pool = defaults.DATABASE_POOL_MAX;

describe('a database that does not answer', () => {
  it('fails the readiness check within 2 s, and passes it once the database answers again', async () => {
    expect((await ready()).status).toBe(200);
    const resume = await stopAnswering();
    const probe = await ready();
    expect(probe.status).toBe(503);
    expect(probe.ms).toBeLessThan(2000);
    await resume();
    const back = await ready();
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ status: 'ok', database: postgres ? 'postgres' : 'pglite' });
  }, 60_000);

  it('answers calls 503 in the envelope within seconds (PostgreSQL) and serves them again after', async () => {
    expect((await signedInCall()).status).toBe(200);
    if (!postgres) {
      // In-process PGlite cannot interrupt a statement: a call waits for the engine, then succeeds.
      const resume = await stopAnswering();
      const call = signedInCall();
      await resume();
      expect((await call).status).toBe(200);
      return;
    }
    // A transaction whose database goes silent between two statements, and as many calls as the pool holds
    // besides: the first calls take idle connections (answer deadline), the rest open new ones (connection
    // deadline).
    let silent!: () => void;
    const wentSilent = new Promise<void>((resolve) => {
      silent = resolve;
    });
    const started = performance.now();
    const transaction = relayed!.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        relay!.blackHole();
        silent();
        await tx.execute(sql`select 2`);
      })
      .catch((e: unknown) => e);
    await wentSilent;
    const calls = await Promise.all(Array.from({ length: pool + 2 }, signedInCall));
    for (const call of calls) {
      expect(call.status).toBe(503);
      expect(call.body).toEqual({
        status: 'FAILURE',
        err: messages.databaseUnavailable,
        code: 'UNAVAILABLE',
      });
      expect(call.ms).toBeLessThan(callWithin);
    }
    // The transaction failed as fast: its rollback did not wait out a second deadline on the cut connection.
    expect(await transaction).toBeInstanceOf(Error);
    expect(performance.now() - started).toBeLessThan(callWithin);

    relay!.forward();
    // As many calls at once as the pool holds, twice: none is handed a connection that hung.
    for (const round of [1, 2]) {
      const after = await Promise.all(Array.from({ length: pool }, signedInCall));
      expect(
        after.map((r) => r.status),
        `round ${round}`,
      ).toEqual(after.map(() => 200));
    }

    // A database that answers but keeps a call waiting on a lock: 503 at the lock deadline, not a hang.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table accounts in access exclusive mode`);
      const waiting = await signedInCall();
      expect(waiting.status).toBe(503);
      expect(waiting.body).toEqual({ status: 'FAILURE', err: messages.databaseTimeout, code: 'UNAVAILABLE' });
      expect(waiting.ms).toBeGreaterThanOrEqual(defaults.DATABASE_LOCK_TIMEOUT_MS - 100);
      expect(waiting.ms).toBeLessThan(callWithin);
    });
    expect((await signedInCall()).status).toBe(200);
  }, 60_000);

  it('still answers a metrics scrape in time (decision 055), without the database-backed gauges', async () => {
    const scrape = async () => {
      const started = performance.now();
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      return { status: res.status, text: await res.text(), ms: performance.now() - started };
    };
    expect((await scrape()).text).toMatch(/^lp_metrics_database_read_ok 1$/m);
    const resume = await stopAnswering();
    const during = await scrape();
    await resume();
    expect(during.status).toBe(200);
    expect(during.ms).toBeLessThan(METRICS_DATABASE_DEADLINE_MS + 1500);
    expect(during.text).toMatch(/^lp_metrics_database_read_ok 0$/m);
    expect(during.text).not.toMatch(/^lp_outbox_pending_messages /m);
    expect(during.text).toMatch(/^lp_http_requests_total\{/m);
    expect((await scrape()).text).toMatch(/^lp_outbox_pending_messages 0$/m);
  }, 60_000);
});
