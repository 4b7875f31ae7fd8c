import fs from 'node:fs';
import path from 'node:path';
import { auditApi } from '@lp/contract/audit/api';
import { noticesApi } from '@lp/contract/notices/api';
import { and, asc, eq, gte, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { acme, apiTest, other } from '../../../test/api-fixture.ts';
import { createTestDatabase } from '../../../test/test-db.ts';
import type { Db } from '../../db/database.ts';
import { auditChainHeads, auditCheckpoints, auditEntries, emails, jobRuns } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { entryHash } from './chain.ts';
import { checkpointFiles, checkpointKey, readCheckpoints, signCheckpoint } from './checkpoint-file.ts';
import { auditCheckpointJob, checkpointPeriod, makeCheckpoint } from './checkpoint-service.ts';
import { automatedActor, recordAudit } from './service.ts';
import { verifyAudit } from './verify-service.ts';

/*
 * The audit log as evidence (issue 20 §5, decision 044): the database refuses TRUNCATE and moving a chain head
 * back; and what its owner can still do (triggers off: truncate, roll back, delete a head, rewrite history with
 * the log's own hash, remove a chain) is found by `audit verify` against the signed checkpoints, naming the
 * first entry affected. The checkpoint job runs once per period across API nodes, mails a copy, and feeds the
 * Audit Log page's status line. Also §7: the server makes every request id; a client's is kept beside it.
 */

/** The checkpoint folder of the app, whose status line the last tests read. */
const STATUS_DIR = 'status';

const it = apiTest
  /** DATA_DIR (one signing key for all) is the file's folder; below it, a checkpoint folder per test. */
  .override('appEnv', { scope: 'file' }, async ({ tempDir }) => ({
    DATA_DIR: tempDir,
    AUDIT_CHECKPOINT_DIR: path.join(tempDir, STATUS_DIR),
  }))
  /** A database of the tampering tests, apart from the app's, whose checkpoint status must stay clean. */
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('logDb', { scope: 'file' }, async ({}, { onCleanup }) => {
    const own = await createTestDatabase();
    onCleanup(() => own.close());
    return own.db;
  })
  .extend('evidence', { scope: 'file' }, async ({ tempDir: root, app }) => {
    /** One configuration per test: its own checkpoint folder, one signing key (DATA_DIR) for all. */
    const configFor = (name: string, env: Record<string, string> = {}) =>
      loadConfig({ DATA_DIR: root, AUDIT_CHECKPOINT_DIR: path.join(root, name), ...env });
    /** The key the first checkpoint created in DATA_DIR; verifying never creates one. */
    const publicKey = () => {
      const key = checkpointKey(configFor('unused'), { create: false });
      if (!key) throw new Error('no checkpoint key yet');
      return key.publicKey;
    };
    return {
      root,
      publicKey,
      checkpoint: (db: Db, name: string, env?: Record<string, string>) =>
        makeCheckpoint(
          { db, config: configFor(name, env), log: app.log },
          { at: tick(), period: null, node: 'test' },
        ),
      /** `audit verify` of one chain against the checkpoints of a folder. */
      verifyWith: (db: Db, name: string, chain?: string) => {
        const { checkpoints } = readCheckpoints(path.join(root, name), publicKey());
        return verifyAudit(
          db,
          chain,
          checkpoints.map((c) => c.checkpoint),
        );
      },
    };
  });

// Each checkpoint gets its own minute: file names are the checkpoint's instant.
let clock = Date.parse('2026-03-01T00:00:00Z');
const tick = () => {
  clock += 60_000;
  return new Date(clock);
};

const write = (db: Db, chain: string, n: number) =>
  db.transaction((tx) =>
    recordAudit(tx as unknown as Db, automatedActor, [
      {
        customerNumber: chain,
        action: 'ip-rules.changed',
        object: { type: 'ip-rules', id: `rule-${n}` },
        before: { n: n - 1 },
        after: { n },
      },
    ]),
  );
const writeMany = async (db: Db, chain: string, count: number) => {
  for (let i = 1; i <= count; i++) await write(db, chain, i);
};

/** What the database owner can do: switch the tables' triggers off, change rows, switch them on again. */
async function asOwner(db: Db, change: (tx: Db) => Promise<unknown>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw('ALTER TABLE audit_entries DISABLE TRIGGER USER'));
    await tx.execute(sql.raw('ALTER TABLE audit_chain_heads DISABLE TRIGGER USER'));
    await change(tx as unknown as Db);
    await tx.execute(sql.raw('ALTER TABLE audit_entries ENABLE TRIGGER USER'));
    await tx.execute(sql.raw('ALTER TABLE audit_chain_heads ENABLE TRIGGER USER'));
  });
}

/** Edits entry `seq` and recomputes every later hash and the head with the log's own hash function. */
async function rewrite(db: Db, chain: string, seq: number, after: Record<string, unknown>) {
  await asOwner(db, async (tx) => {
    const rows = await tx
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.chain, chain), gte(auditEntries.seq, seq)))
      .orderBy(asc(auditEntries.seq));
    let prev = rows[0].prevHash;
    for (const row of rows) {
      const { id, prevHash: _prev, hash: _hash, ...fields } = row;
      const edited = row.seq === seq ? { ...fields, after } : fields;
      const hash = entryHash(prev, edited);
      await tx
        .update(auditEntries)
        .set({ after: edited.after, prevHash: prev, hash })
        .where(eq(auditEntries.id, id));
      prev = hash;
    }
    await tx
      .update(auditChainHeads)
      .set({ seq: rows.at(-1)!.seq, hash: prev })
      .where(eq(auditChainHeads.chain, chain));
  });
}

const entryAt = async (db: Db, chain: string, seq: number) =>
  (
    await db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.chain, chain), eq(auditEntries.seq, seq)))
  )[0];

/** The statement fails with the database's own message (drizzle wraps it as the cause). */
async function refused(db: Db, statement: SQL, message: RegExp) {
  const error = await db.execute(statement).then(
    () => null,
    (e: Error) => e,
  );
  expect(String((error?.cause as Error | undefined)?.message ?? error?.message)).toMatch(message);
}

describe('the database refuses', () => {
  it('TRUNCATE of the log and of the chain heads, deleting a head, and moving a head back', async ({
    logDb,
  }) => {
    const db = logDb;
    await writeMany(db, '5800001', 3);
    await refused(db, sql`truncate audit_entries`, /audit entries are append-only/);
    await refused(db, sql`truncate audit_chain_heads`, /audit chain heads only move forward/);
    await refused(db, sql`truncate audit_entries, audit_chain_heads cascade`, /append-only/);
    await refused(db, sql`delete from audit_chain_heads where chain = '5800001'`, /only move forward/);
    await refused(db, sql`update audit_chain_heads set seq = 2 where chain = '5800001'`, /only move forward/);
    await refused(db, sql`update audit_chain_heads set seq = 5 where chain = '5800001'`, /only move forward/);
    expect((await verifyAudit(db, '5800001'))[0]).toEqual({ chain: '5800001', entries: 3, ok: true });
    // Appends still move the head one entry at a time.
    await write(db, '5800001', 4);
    expect((await verifyAudit(db, '5800001'))[0]).toEqual({ chain: '5800001', entries: 4, ok: true });
  });
});

describe('audit verify against the checkpoints finds', () => {
  it('a truncated log, which alone verifies as 0 chains', async ({
    evidence: { checkpoint, verifyWith },
  }) => {
    const own = await createTestDatabase();
    try {
      await writeMany(own.db, '5810001', 3);
      await writeMany(own.db, '5810002', 2);
      await write(own.db, '*', 1);
      expect((await checkpoint(own.db, 'truncated')).verification.ok).toBe(true);
      await asOwner(own.db, (tx) => tx.execute(sql`truncate audit_entries, audit_chain_heads`));

      expect(await verifyAudit(own.db)).toEqual([]);
      const checks = await verifyWith(own.db, 'truncated');
      expect(checks.map((c) => [c.chain, c.ok, c.problem?.seq])).toEqual([
        ['*', false, 1],
        ['5810001', false, 1],
        ['5810002', false, 1],
      ]);
      expect(checks[1].problem?.reason).toMatch(/^chain missing: the checkpoint of .+ has its entry 3$/);
    } finally {
      await own.close();
    }
  });

  it('a rolled-back head (last entries deleted, the head moved back)', async ({
    logDb,
    evidence: { checkpoint, verifyWith },
  }) => {
    const db = logDb;
    await writeMany(db, '5820001', 4);
    await checkpoint(db, 'rollback');
    const second = await entryAt(db, '5820001', 2);
    await asOwner(db, async (tx) => {
      await tx.execute(sql`delete from audit_entries where chain = '5820001' and seq > 2`);
      await tx
        .update(auditChainHeads)
        .set({ seq: 2, hash: second.hash })
        .where(eq(auditChainHeads.chain, '5820001'));
    });
    expect(await verifyAudit(db, '5820001')).toEqual([{ chain: '5820001', entries: 2, ok: true }]);
    const [check] = await verifyWith(db, 'rollback', '5820001');
    expect(check).toMatchObject({ chain: '5820001', ok: false, entries: 2 });
    expect(check.problem?.seq).toBe(3);
    expect(check.problem?.reason).toMatch(
      /^entries missing: the chain ends at entry 2, the checkpoint of .+ has entry 4$/,
    );
  });

  it('a deleted head row', async ({ logDb, evidence: { checkpoint, verifyWith } }) => {
    const db = logDb;
    await writeMany(db, '5830001', 3);
    await checkpoint(db, 'head');
    await asOwner(db, (tx) => tx.execute(sql`delete from audit_chain_heads where chain = '5830001'`));
    // The entries alone name the chain now; before, a chain without a head was not checked at all.
    expect(await verifyAudit(db, '5830001')).toEqual([
      { chain: '5830001', entries: 3, ok: false, problem: { seq: 3, reason: 'chain head missing' } },
    ]);
    expect((await verifyWith(db, 'head', '5830001'))[0].problem).toEqual({
      seq: 3,
      reason: 'chain head missing',
    });
  });

  it('history rewritten with the log’s own hash, naming the first checkpointed entry that differs', async ({
    logDb,
    evidence: { checkpoint, verifyWith },
  }) => {
    const db = logDb;
    await writeMany(db, '5840001', 2);
    await checkpoint(db, 'rewritten');
    for (let i = 3; i <= 5; i++) await write(db, '5840001', i);
    await checkpoint(db, 'rewritten');
    await rewrite(db, '5840001', 3, { n: 'forged' });

    expect(await verifyAudit(db, '5840001')).toEqual([{ chain: '5840001', entries: 5, ok: true }]);
    const [check] = await verifyWith(db, 'rewritten', '5840001');
    expect(check).toMatchObject({ ok: false, entries: 4, problem: { seq: 5 } });
    expect(check.problem?.reason).toMatch(
      /^history rewritten: the entry differs from the checkpoint of .+ \(entry 2 still matches the checkpoint of .+\)$/,
    );
  });

  it('a vanished chain (its entries and its head removed)', async ({
    logDb,
    evidence: { checkpoint, verifyWith },
  }) => {
    const db = logDb;
    await writeMany(db, '5850001', 2);
    await writeMany(db, '5850002', 2);
    await checkpoint(db, 'vanished');
    await asOwner(db, async (tx) => {
      await tx.execute(sql`delete from audit_entries where chain = '5850001'`);
      await tx.execute(sql`delete from audit_chain_heads where chain = '5850001'`);
    });
    const checks = (await verifyWith(db, 'vanished')).filter((c) => c.chain.startsWith('585'));
    expect(checks).toEqual([
      {
        chain: '5850001',
        entries: 0,
        ok: false,
        problem: {
          seq: 1,
          reason: expect.stringMatching(/^chain missing: the checkpoint of .+ has its entry 2$/),
        },
      },
      { chain: '5850002', entries: 2, ok: true },
    ]);
  });

  it('an edited checkpoint file (bad signature) and one signed by another key', async ({
    logDb,
    evidence: { root, publicKey, checkpoint },
  }) => {
    const db = logDb;
    await writeMany(db, '5860001', 2);
    const first = await checkpoint(db, 'forged');
    const dir = path.join(root, 'forged');
    const file = path.join(dir, first.file!);
    const original = fs.readFileSync(file, 'utf8');
    const parsed = JSON.parse(original);
    const anchor = parsed.checkpoint.chains.find((c: { chain: string }) => c.chain === '5860001');
    anchor.seq = 1;
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(file, JSON.stringify(parsed));
    // Another key signs a copy (a forger with their own key).
    const { createHash, generateKeyPairSync } = await import('node:crypto');
    const forger = generateKeyPairSync('ed25519');
    const keyId = createHash('sha256')
      .update(forger.publicKey.export({ type: 'spki', format: 'der' }))
      .digest('hex')
      .slice(0, 16);
    fs.writeFileSync(
      path.join(dir, 'audit-checkpoint-20990101T000000000Z.json'),
      signCheckpoint({ ...forger, keyId }, { ...parsed.checkpoint, keyId }),
    );

    const { checkpoints, refused } = readCheckpoints(dir, publicKey());
    expect(checkpoints).toEqual([]);
    expect(refused).toEqual([
      { file: first.file, reason: 'bad signature' },
      {
        file: 'audit-checkpoint-20990101T000000000Z.json',
        reason: expect.stringMatching(
          /^signed by another key \(key id [0-9a-f]{16}, expected [0-9a-f]{16}\)$/,
        ),
      },
    ]);
    // The job reports the newest refused files and does not take them as its previous checkpoint.
    const next = await checkpoint(db, 'forged');
    expect(next.verification.ok).toBe(false);
    expect(next.verification.problems.filter((p) => p.chain === null).map((p) => p.reason)).toEqual([
      expect.stringMatching(/^checkpoint audit-checkpoint-20990101T000000000Z\.json: signed by another key/),
      `checkpoint ${first.file}: bad signature`,
    ]);
  });
});

describe('the checkpoint job', () => {
  it('writes one checkpoint per period however many API nodes run it, and mails a copy to the audit address', async ({
    app,
    evidence: { root, publicKey },
  }) => {
    const own = await createTestDatabase();
    const env = {
      DATA_DIR: root,
      AUDIT_CHECKPOINT_DIR: path.join(root, 'job'),
      AUDIT_CHECKPOINT_EMAIL: 'audit@vendor.example',
      // A week: both nodes' first polls fall in one period.
      AUDIT_CHECKPOINT_MINUTES: '10080',
      JOBS_ENABLED: 'true',
      JOBS_POLL_SECONDS: '86400',
    };
    const nodes: FastifyInstance[] = [];
    try {
      await writeMany(own.db, '5870001', 3);
      nodes.push(await createTestApp(own, env), await createTestApp(own, env));
      // Each node polls once when ready; closing waits for a poll in progress.
      await Promise.all(nodes.map((n) => n.ready()));
      await Promise.all(nodes.splice(0).map((n) => n.close()));

      const dir = path.join(root, 'job');
      let files = checkpointFiles(dir);
      expect(files).toHaveLength(1);
      const runs = await own.db.select().from(auditCheckpoints);
      expect(runs).toEqual([
        expect.objectContaining({ file: files[0], chains: 1, entries: 3, ok: true, problems: [] }),
      ]);
      expect(runs[0].period).toBe(checkpointPeriod(runs[0].at, 10_080));
      const jobs = await own.db.select().from(jobRuns).where(eq(jobRuns.name, 'audit-checkpoint'));
      expect(jobs).toHaveLength(1);
      expect(jobs[0].finishedAt).not.toBeNull();

      const mails = await own.db.select().from(emails);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({
        customerNumber: null,
        to: 'audit@vendor.example',
        subject: expect.stringMatching(/^Audit checkpoint \d{4}-/),
      });
      const [attachment] = mails[0].attachments as { filename: string; contentBase64: string }[];
      expect(attachment.filename).toBe(files[0]);
      expect(Buffer.from(attachment.contentBase64, 'base64').toString()).toBe(
        fs.readFileSync(path.join(dir, files[0]), 'utf8'),
      );

      // The next period: a new checkpoint once, from whichever node polls first.
      const ctx: AppContext = {
        config: loadConfig(env),
        database: own,
        db: own.db,
        secret: Buffer.alloc(32),
        log: app.log,
      };
      const job = auditCheckpointJob(10_080);
      const next = () => new Date(runs[0].at.getTime() + 7 * 24 * 3_600_000);
      await write(own.db, '5870001', 4);
      const polls = await Promise.all(
        ['node-a', 'node-b'].map((node) => runDueJobs(ctx, [job], { node, now: next })),
      );
      expect(polls.flat()).toEqual([
        { name: 'audit-checkpoint', runKey: checkpointPeriod(next(), 10_080), ok: true },
      ]);
      files = checkpointFiles(dir);
      expect(files).toHaveLength(2);
      const { checkpoints } = readCheckpoints(dir, publicKey());
      expect(checkpoints.at(-1)?.checkpoint).toMatchObject({
        chainCount: 1,
        chains: [{ chain: '5870001', seq: 4 }],
        verification: { ok: true, problems: [] },
      });
      expect(await own.db.select().from(emails)).toHaveLength(2);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
      await own.close();
    }
  });
});

describe('the checkpoint key in prod', () => {
  it('is never generated: without AUDIT_CHECKPOINT_KEY a run records why; with it, checkpoints are signed by it', async ({
    app,
    logDb,
    evidence: { root, publicKey },
  }) => {
    const dataDir = fs.mkdtempSync(path.join(root, 'prod-'));
    const prod = { APP_ENVIRONMENT: 'prod', PUBLIC_URL: 'https://portal.example.com', DATA_DIR: dataDir };
    const run = (config: ReturnType<typeof loadConfig>) =>
      makeCheckpoint({ db: logDb, config, log: app.log }, { at: tick(), period: null, node: 'test' });

    const missing = await run(loadConfig(prod));
    expect(missing).toMatchObject({ file: null, verification: { ok: false } });
    expect(missing.verification.problems).toEqual([
      {
        chain: null,
        seq: null,
        reason: expect.stringMatching(/^No audit checkpoint key: set AUDIT_CHECKPOINT_KEY/),
      },
    ]);
    expect(fs.readdirSync(dataDir)).toEqual([]);

    const seed = 'cd'.repeat(32);
    const config = loadConfig({ ...prod, AUDIT_CHECKPOINT_KEY: seed });
    const made = await run(config);
    expect(made.file).not.toBeNull();
    const key = checkpointKey(config, { create: false });
    expect(readCheckpoints(made.dir, key!.publicKey).checkpoints.map((c) => c.file)).toEqual([made.file]);
    // The project's own key (DATA_DIR file of the other tests) does not verify it.
    expect(readCheckpoints(made.dir, publicKey()).refused).toEqual([
      { file: made.file, reason: expect.stringMatching(/^signed by another key/) },
    ]);
  });
});

describe('the Audit Log page’s status and the request ids', () => {
  // The app's own database: nothing in it is tampered with but what these tests do.
  const ACME = acme.customerNumber;
  const OTHER = other.customerNumber;

  it('keeps a client’s X-Request-Id beside the server’s own request id, both in the chain', async ({
    api,
    database: { db },
    cast: { boss },
  }) => {
    const res = await api.call(
      boss,
      noticesApi.setTypes,
      { customerNumber: ACME, disabledTypes: ['lease-ending'] },
      { headers: { 'x-request-id': 'forged' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const serverId = res.headers['x-request-id'];
    expect(serverId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [entry] = await db.select().from(auditEntries).where(eq(auditEntries.chain, ACME));
    expect(entry).toMatchObject({ requestId: serverId, clientRequestId: 'forged' });

    // The reader sees both, marked apart.
    const read = await api.ok(boss, auditApi.page, { customerNumber: ACME });
    expect(read.data[0]).toMatchObject({ requestId: serverId, clientRequestId: 'forged' });

    // The client's id is hashed with the entry: removing it shows as an edited entry.
    expect(await verifyAudit(db, ACME)).toEqual([{ chain: ACME, entries: 1, ok: true }]);
    await asOwner(db, (tx) => tx.execute(sql`update audit_entries set client_request_id = null`));
    expect((await verifyAudit(db, ACME))[0].problem).toEqual({ seq: 1, reason: 'entry edited' });
    await asOwner(db, (tx) => tx.execute(sql`update audit_entries set client_request_id = 'forged'`));

    // Without a header, or with one that is no plausible id, there is no client id.
    const plain = await api.call(
      boss,
      noticesApi.setTypes,
      { customerNumber: ACME, disabledTypes: [] },
      { headers: { 'x-request-id': 'not an id; <script>' } },
    );
    expect(plain.statusCode).toBe(200);
    const rows = await db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.chain, ACME))
      .orderBy(asc(auditEntries.seq));
    expect(rows[1]).toMatchObject({ requestId: plain.headers['x-request-id'], clientRequestId: null });
  });

  it('shows the last checkpoint and the verdict: every problem to vendor staff, its own chain’s to an account', async ({
    api,
    database: { db },
    cast: { boss, reader, busops },
    evidence: { checkpoint },
  }) => {
    const status = auditApi.checkpointStatus;
    const none = { lastCheckpoint: null, checkedAt: null, ok: null, problems: [] };
    expect(await api.ok(boss, status, { customerNumber: ACME })).toEqual({ status: 'SUCCESS', data: none });
    await api.refused(reader, status, { customerNumber: ACME }, 403);
    await api.refused(boss, status, {}, 403);

    await writeMany(db, OTHER, 3);
    const first = await checkpoint(db, STATUS_DIR);
    const passed = (await api.ok(busops, status, {})).data;
    expect(passed).toEqual({
      lastCheckpoint: first.at.slice(0, 19).replace('T', ' '),
      checkedAt: first.at.slice(0, 19).replace('T', ' '),
      ok: true,
      problems: [],
    });

    await rewrite(db, OTHER, 2, { n: 'forged' });
    const second = await checkpoint(db, STATUS_DIR);
    expect(second.verification.ok).toBe(false);
    const staff = (await api.ok(busops, status, {})).data;
    expect(staff).toMatchObject({ lastCheckpoint: second.at.slice(0, 19).replace('T', ' '), ok: false });
    expect(staff.problems).toEqual([
      { chain: OTHER, seq: 3, reason: expect.stringMatching(/^history rewritten/) },
    ]);
    expect((await api.ok(boss, status, { customerNumber: ACME })).data).toMatchObject({
      ok: false,
      problems: [],
    });

    // A failure stays on record: the next check (nothing changed) still fails, and writes no new file.
    const third = await checkpoint(db, STATUS_DIR);
    expect(third).toMatchObject({ file: null, verification: { ok: false } });
    expect((await api.ok(busops, status, {})).data).toMatchObject({
      lastCheckpoint: staff.lastCheckpoint,
      checkedAt: third.at.slice(0, 19).replace('T', ' '),
      ok: false,
    });
  });
});
