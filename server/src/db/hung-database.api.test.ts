import net from 'node:net';
import { accountsApi } from '@lp/contract/accounts/api';
import { messages } from '@lp/contract/common/errors';
import { platformApi } from '@lp/contract/platform/api';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { createTestApp } from '../../harness/test-app.ts';
import { apiTest } from '../../test/api-fixture.ts';
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

interface Timed {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, compared whole.
  body: any;
  ms: number;
}

const test = apiTest
  /** On PostgreSQL, the relay and a database client of the product's defaults that connects through it. */
  .extend('relayed', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    if (!postgres) return undefined;
    const url = new URL(database.url!);
    const relay = await startRelay(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${relay.port}`;
    const served = await openPostgres(url.toString(), defaults.DATABASE_POOL_MAX, timeoutsOf(defaults)).catch(
      async (e: unknown) => {
        await relay.close();
        throw e;
      },
    );
    onCleanup(async () => {
      await served.close();
      await relay.close();
    });
    return { relay, served };
  })
  // The app serves the relayed database on PostgreSQL (the fixture's own on PGlite), with a metrics token.
  .override('app', { scope: 'file' }, async ({ database, relayed }, { onCleanup }) => {
    const app = await createTestApp(relayed?.served ?? database, { METRICS_TOKEN: metricsToken });
    onCleanup(() => app.close());
    return app;
  })
  /** Requests over HTTP to the listening app, each with how long it took to be answered, in ms. */
  .extend('timed', { scope: 'file' }, async ({ baseUrl, signIn }) => {
    const { headers } = await signIn('staff@vendor.example', { vendorRoles: ['busops'] });
    const timed = async (path: string, init: RequestInit = {}): Promise<Timed> => {
      const started = performance.now();
      const res = await fetch(`${baseUrl}${path}`, init);
      const body = await res.json();
      return { status: res.status, body, ms: performance.now() - started };
    };
    return {
      ready: () => timed(platformApi.ready.path),
      signedInCall: () =>
        timed(accountsApi.page.path, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        }),
      scrape: async () => {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
        });
        return { status: res.status, text: await res.text(), ms: performance.now() - started };
      },
    };
  })
  /** The engine stops answering until the returned function is called: a black hole, or PGlite held. */
  .extend('stopAnswering', { scope: 'file' }, async ({ database, relayed }) => {
    return async (): Promise<() => Promise<void>> => {
      if (!relayed) return holdPglite(database);
      relayed.relay.blackHole();
      return async () => relayed.relay.forward();
    };
  });

/** Holds PGlite's one connection in a transaction until the returned function is called. */
async function holdPglite(database: Database): Promise<() => Promise<void>> {
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

// The statement deadline plus the client's grace, and scheduling slack for a loaded 2-core machine.
const callWithin = defaults.DATABASE_STATEMENT_TIMEOUT_MS + ANSWER_GRACE_MS + 1500;
const pool = defaults.DATABASE_POOL_MAX;

describe('a database that does not answer', () => {
  test('fails the readiness check within 2 s, and passes it once the database answers again', async ({
    timed: { ready },
    stopAnswering,
  }) => {
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

  test('answers calls 503 in the envelope within seconds (PostgreSQL) and serves them again after', async ({
    database,
    relayed,
    timed: { signedInCall },
    stopAnswering,
  }) => {
    expect((await signedInCall()).status).toBe(200);
    if (!relayed) {
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
    const { relay, served } = relayed;
    const transaction = served.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        relay.blackHole();
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

    relay.forward();
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

  test('still answers a metrics scrape in time (decision 055), without the database-backed gauges', async ({
    timed: { scrape },
    stopAnswering,
  }) => {
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
