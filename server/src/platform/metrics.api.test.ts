import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activationsApi } from '@lp/contract/activations/api';
import { clsApi } from '@lp/contract/cls/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { platformApi } from '@lp/contract/platform/api';
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  usageEvents,
} from '../../harness/elastic-factories.ts';
import { buildLease } from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { acme, anonymous, apiTest, bearer } from '../../test/api-fixture.ts';
import { sample } from '../../test/metric-sample.ts';
import { emails, products } from '../db/schema.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';
import { metricsListenerAddress } from './metrics.ts';

/* /metrics (decision 055): what an operator's Prometheus scrapes, on both engines. */
const TOKEN = 'metrics-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const CN = acme.customerNumber;

const test = apiTest
  .override('appEnv', { scope: 'file' }, { METRICS_TOKEN: TOKEN })
  /**
   * Another app on the same database with its own settings, its audit checkpoints (when it runs jobs) in a folder
   * of the file's; the apps are closed, then the folder removed, after the file's last test.
   */
  .extend('otherApp', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    const apps: FastifyInstance[] = [];
    const checkpoints = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-metrics-checkpoints-'));
    onCleanup(async () => {
      for (const app of apps) await app.close();
      fs.rmSync(checkpoints, { recursive: true, force: true });
    });
    return async (env: Record<string, string> = {}) => {
      const app = await createTestApp(database, { AUDIT_CHECKPOINT_DIR: checkpoints, ...env });
      apps.push(app);
      return app;
    };
  })
  /** Scrapes /metrics of the app (the file's own unless told) with the token, and answers the text. */
  .extend('scrape', { scope: 'file' }, async ({ app }) => {
    return async (target: FastifyInstance = app): Promise<string> => {
      const res = await target.inject({ url: '/metrics', headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.body;
    };
  });

describe('access', () => {
  test('refuses /metrics without the token, in the envelope', async ({ app }) => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ]) {
      const res = await app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
    }
    const below = await app.inject({ url: '/metrics/extra', headers: auth });
    expect([below.statusCode, below.json().code]).toEqual([404, 'NOT_FOUND']);
  });

  test('is not served at all without METRICS_TOKEN or METRICS_LISTEN', async ({ otherApp }) => {
    const plain = await otherApp();
    const res = await plain.inject({ url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'FAILURE', err: 'Not found', code: 'NOT_FOUND' });
  });

  test('METRICS_LISTEN serves /metrics only on its own address, and the app port not at all', async ({
    otherApp,
  }) => {
    const separate = await otherApp({ METRICS_LISTEN: '127.0.0.1:0' });
    await separate.listen({ port: 0, host: '127.0.0.1' });
    const address = metricsListenerAddress(separate);
    expect(address?.port).toBeGreaterThan(0);
    const metrics = await fetch(`http://127.0.0.1:${address?.port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP process_cpu_user_seconds_total/m);
    const other = await fetch(`http://127.0.0.1:${address?.port}${platformApi.config.path}`);
    expect([other.status, (await other.json()).code]).toEqual([404, 'NOT_FOUND']);
    expect((await separate.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('what a scrape shows', () => {
  test('counts requests and their latency by operation id and status, never by raw URL', async ({
    api,
    app,
    cast: { boss },
    scrape,
  }) => {
    const before = await scrape();
    const ok = { operation: 'getClientConfig', method: 'GET', status: '200' };
    const missing = { operation: 'notFound', method: 'GET', status: '404' };
    await api.ok(anonymous, platformApi.config, undefined);
    await api.ok(anonymous, platformApi.config, undefined);
    // Signed in: an unknown /api path is 404 (without a session it is 401, as for any call needing one).
    expect((await app.inject({ url: '/api/no-such-call-4711', headers: boss.headers })).statusCode).toBe(404);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('lp_http_requests_total', ok)).toBe(2);
    expect(delta('lp_http_request_duration_seconds_count', ok)).toBe(2);
    expect(delta('lp_http_requests_total', missing)).toBe(1);
    expect(after).not.toContain('4711');
    // Process metrics are there too.
    expect(sample(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  test('shows the database pool on PostgreSQL (PGlite has none) and the outbox backlog', async ({
    database,
    cast: _accounts,
    scrape,
  }) => {
    const text = await scrape();
    if (database.engine === 'postgres') {
      expect(sample(text, 'lp_db_pool_max_connections')).toBe(5);
      expect(sample(text, 'lp_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'lp_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(sample(text, 'lp_db_pool_connections')).toBeUndefined();
    }
    expect(sample(text, 'lp_outbox_pending_messages')).toBe(0);
    const message = { customerNumber: CN, to: 'a@acme.example', subject: 's', body: 'b' };
    await database.db.insert(emails).values([
      { ...message, deliveryStatus: 'pending', attempts: 2, date: new Date(Date.now() - 600_000) },
      { ...message, deliveryStatus: 'failed', attempts: 5 },
      { ...message, deliveryStatus: 'sent', attempts: 1 },
    ]);
    const after = await scrape();
    expect(sample(after, 'lp_metrics_database_read_ok')).toBe(1);
    expect(sample(after, 'lp_outbox_pending_messages')).toBe(1);
    expect(sample(after, 'lp_outbox_retrying_messages')).toBe(1);
    expect(sample(after, 'lp_outbox_failed_messages')).toBe(1);
    expect(sample(after, 'lp_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(600);
  });

  test('counts usage events a license server posts, and how late they arrived', async ({
    api,
    database,
    cast: _accounts,
    scrape,
  }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Solver: 2 });
    const clsId = await buildElasticServer(db, CN);
    await buildElasticEntitlement(db, CN, { quantity: 100, startDate: '2020-01-01', endDate: '2099-12-31' });
    const { token } = await issueServerCredential(db, {
      customerNumber: CN,
      elasticServerId: clsId,
      createdBy: 'test',
    });
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const events = usageEvents([{ product: 'Solver', start: hourAgo, end: new Date().toISOString() }]);
    const res = await api.call(bearer(token), clsApi.usage, { events: [...events, { type: 'start' }] });
    expect(res.json()).toMatchObject({ accepted: 2, rejected: [{ index: 2 }] });
    const text = await scrape();
    expect(sample(text, 'lp_usage_events_total', { outcome: 'accepted' })).toBe(2);
    expect(sample(text, 'lp_usage_events_total', { outcome: 'rejected' })).toBe(1);
    expect(sample(text, 'lp_usage_ingest_lag_seconds_count')).toBe(2);
    // The start event is an hour old, the end event fresh.
    expect(sample(text, 'lp_usage_ingest_lag_seconds_bucket', { le: '60' })).toBe(1);
    expect(sample(text, 'lp_usage_ingest_lag_seconds_bucket', { le: '3600' })).toBe(1);
    expect(sample(text, 'lp_usage_ingest_lag_seconds_bucket', { le: '14400' })).toBe(2);
    expect(sample(text, 'lp_http_requests_total', { operation: 'postServerUsage', status: '200' })).toBe(1);
    // Without a replica the batch is visible to the usage pages at its commit (issue 25 §3: within 5 s).
    expect(sample(text, 'lp_usage_visible_seconds_count')).toBe(1);
    expect(sample(text, 'lp_usage_visible_seconds_bucket', { le: '5' })).toBe(1);
  });

  test('counts license files generated', async ({ api, database, cast: { boss }, scrape }) => {
    const { db } = database;
    await db.insert(products).values({
      partNumber: 'MT-SOLVER',
      name: 'Solver',
      family: 'Fluids',
      daemon: 'cfdlmd',
      featureName: 'cfd_solver',
    });
    await buildLease(db, CN, 'MT-LEASE', { partNumber: 'MT-SOLVER' });
    const host = { customerNumber: CN, serverId: 'ab0000000001', serverIdType: 'ETHERNET' };
    await api.ok(boss, activationsApi.create, {
      ...host,
      serverName: 'lic1',
      activations: [{ id: 'MT-LEASE', count: 1 }],
    });
    expect(sample(await scrape(), 'lp_license_files_generated_total')).toBe(0);
    await api.ok(boss, licenseFilesApi.license, host);
    expect(sample(await scrape(), 'lp_license_files_generated_total')).toBe(1);
  });

  test('counts job runs by job and outcome', async ({ otherApp, scrape }) => {
    const withJobs = await otherApp({
      METRICS_TOKEN: TOKEN,
      JOBS_ENABLED: 'true',
    });
    // The runner polls once when the app is ready; each run is counted when it ends.
    await withJobs.ready();
    let text = await scrape(withJobs);
    while (sample(text, 'lp_job_runs_total', { job: 'audit-checkpoint' }) === undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      text = await scrape(withJobs);
    }
    expect(sample(text, 'lp_job_runs_total', { job: 'notices', outcome: 'succeeded' })).toBe(1);
    expect(sample(text, 'lp_job_runs_total', { job: 'audit-checkpoint', outcome: 'succeeded' })).toBe(1);
    expect(sample(text, 'lp_job_run_duration_seconds_count', { job: 'notices' })).toBe(1);
    // The other app in the same process ran no job: each app counts its own.
    expect(sample(await scrape(), 'lp_job_runs_total')).toBeUndefined();
  });
});
