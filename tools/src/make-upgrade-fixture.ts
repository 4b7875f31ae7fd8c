/**
 * Makes the upgrade test's fixture (decision 057): a database as an earlier release of the portal made and used
 * it, as a plain SQL dump both engines load. Run once per release worth keeping, and commit its output:
 *
 *   node --import tsx tools/src/make-upgrade-fixture.ts [COMMIT] [ADMIN_DATABASE_URL]
 *
 * The release's own code (a git worktree of COMMIT, sharing this checkout's installed packages) migrates a new
 * PostgreSQL database, seeds a small demo world and then works on it through its API: an FSA order, a license
 * server's fulfillment and license file, IP rules. Its audit log is therefore hash-chained as that release wrote
 * it. pg_dump then writes the database with INSERT statements (PGlite has no COPY FROM STDIN).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '../..');
/** The last commit of issue 13 (migrations 0000-0008), before the audit checkpoints and sign-in changes of issue 20. */
export const FIXTURE_COMMIT = '1a6694b06fb7f6908fcb852740faf4f846d5c73a';
export const fixtureFile = (commit: string) =>
  path.join(root, 'server/src/db/fixtures', `release-${commit.slice(0, 7)}.sql.gz`);

/** Runs in the worktree, against the release's own modules. */
const DRIVER = `
import { openPostgres, migrateDatabase } from './server/src/db/database.ts';
import { seedDemoWorld } from './server/src/features/demo/seed.ts';
import { fsaPrices, products } from './server/src/db/schema.ts';
import { buildAccountFixture } from './server/src/test/account-fixture.ts';
import { buildEntitlement, buildLease, buildLicenseServer, dayFromToday as day } from './server/src/test/factories.ts';
import { createTestApp } from './server/src/test/test-app.ts';

const url = process.env.FIXTURE_DATABASE_URL;
const database = await openPostgres(url, 4);
await migrateDatabase(database, url);
await database.db.transaction((tx) => seedDemoWorld(tx, { seed: 7, sessions: 300, demoPassword: 'demo-password' }));
const app = await createTestApp(database, { PIN_ENCRYPTION_KEY: 'ab'.repeat(32) });
const CN = '7700001';
const { boss } = await buildAccountFixture(database.db, CN, '7700002');
const ok = async (url, payload) => {
  const res = await app.inject({ method: 'POST', url, headers: boss, payload });
  if (res.statusCode !== 200) throw new Error(url + ' answered ' + res.statusCode + ': ' + res.body);
};
await database.db.insert(products).values({ partNumber: 'UPG-SOLVER', name: 'Solver', family: 'Fluids', daemon: 'cfdlmd', featureName: 'cfd' });
const fsa = await buildEntitlement(database.db, CN, { activationId: 'UPG-FSA', kind: 'FSA', licenseModel: 'FSA', startDate: day(-30), endDate: day(400), currency: 'USD', poNumber: 'PO-UPG', priceCents: 1_000_000, busopsEmails: null });
await database.db.insert(fsaPrices).values({ contractId: fsa.id, partNumber: 'UPG-SOLVER', price7DaysCents: 1_000 });
await ok('/api/entitlements', { customerNumber: CN, fsaID: 'UPG-FSA', products: [{ ansysbpn: 'UPG-SOLVER', ansyscount: 2, startdate: day(0), duration: '7' }] });
await buildLease(database.db, CN, 'UPG-LEASE', { partNumber: 'UPG-SOLVER' });
await ok('/api/fulfillments/create', { customerNumber: CN, serverName: 'upg', serverIdType: 'ETHERNET', serverId: '0A1B2C3D4E5F', activations: [{ id: 'UPG-LEASE', count: 1 }] });
await ok('/api/fulfillments/license', { customerNumber: CN, serverId: '0A1B2C3D4E5F', serverIdType: 'ETHERNET' });
await buildLicenseServer(database.db, CN, { hostIdentity: 'UPG-CLS', kind: 'elastic', state: 'Active' });
await ok('/api/setips', { customerNumber: CN, clsId: 'UPG-CLS', whitelist: [{ rulename: 'Office', ipaddress: '192.168.10.7' }] });
await ok('/api/setips', { customerNumber: CN, clsId: 'UPG-CLS', whitelist: [] });
await app.close();
await database.close();
`;

async function main(commit: string, adminUrl: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-fixture-'));
  const tree = path.join(work, 'tree');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'inherit' });
  git('worktree', 'add', '--detach', tree, commit);
  const name = `lp_fixture_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // The installed packages, with the workspace packages pointing at the release's own code.
    const modules = path.join(tree, 'node_modules');
    fs.mkdirSync(path.join(modules, '@lp'), { recursive: true });
    for (const entry of fs.readdirSync(path.join(root, 'node_modules')))
      if (entry !== '@lp') fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
    for (const pkg of fs.readdirSync(path.join(root, 'node_modules/@lp')))
      fs.symlinkSync(path.join(tree, pkg), path.join(modules, '@lp', pkg));
    fs.symlinkSync(path.join(root, 'server/node_modules'), path.join(tree, 'server/node_modules'));
    fs.writeFileSync(path.join(tree, 'fixture-driver.ts'), DRIVER);

    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    execFileSync(process.execPath, ['--import', 'tsx', 'fixture-driver.ts'], {
      cwd: tree,
      env: { ...process.env, FIXTURE_DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' },
      stdio: 'inherit',
    });
    const dumped = execFileSync(
      'pg_dump',
      ['--inserts', '--rows-per-insert=200', '--no-owner', '--no-acl', '--no-comments', url.toString()],
      { maxBuffer: 1 << 30, encoding: 'utf8' },
    );
    // psql's meta-commands (\restrict) are not SQL: the test runs the file through a driver, not psql.
    const dump = dumped
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const file = fixtureFile(commit);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, gzipSync(dump, { level: 9 }));
    process.stderr.write(`${file}: ${(fs.statSync(file).size / 1e6).toFixed(2)} MB\n`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    git('worktree', 'remove', '--force', tree);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main)
  await main(process.argv[2] ?? FIXTURE_COMMIT, process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/test');
