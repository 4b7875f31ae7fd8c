/**
 * The operator CLI's commands (`npm run cli -- <command>`), run on the streams and environment given: tools/src/cli.ts
 * runs them on the process's own, the tests in their process (issue 23 §5). Opens the database exactly like the
 * server (same env, same migrations). Only the requested output goes to `stdout` (so `token create` can be captured
 * by scripts); everything else goes to `stderr`. A command releases all it opened (database, PGlite folder lock)
 * before its promise settles.
 */
import { parseArgs } from 'node:util';
import type { Database } from '@lp/server/db/database';
import { type Config, ConfigError, loadConfig } from '@lp/server/platform/config';
import { AppError } from '@lp/server/platform/errors';
import { CommandError, UsageError } from './errors.ts';
import type { Output } from './output.ts';

/** Where a command runs: its environment (the settings) and its two output streams. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const USAGE = `Usage: npm run cli -- <command>

Commands:
  seed [--sessions N] [--seed S]              clear the database and seed the demo world (default seed 42,
                                              sessions from SEED_SESSIONS, default 200000)
  token create --user EMAIL [--name NAME] [--expires DAYS]
                                              create a personal API token; prints only the token (expires in
                                              API_TOKEN_DEFAULT_DAYS, default 90, at most API_TOKEN_MAX_DAYS)
  token revoke --user EMAIL | --id TOKEN_ID   revoke all tokens of a user, or one token
  users list [--json]                         every user with vendor roles and per-account contact roles
  users add --user EMAIL [--name NAME] [--role ROLE]...
                                              add a user of the built-in sign-in (e.g. the first vendor
                                              administrator: --role admin); prints a set-password link, once,
                                              valid 24 hours (nobody knows a password until it is used)
  users password-link --user EMAIL            print a new set-password link for a built-in sign-in user
  users disable --user EMAIL                  end every session and token of the user now; refuse sign-in
  users enable --user EMAIL                   allow a disabled user to sign in again
  users remove --user EMAIL                   delete the user, their tokens, built-in sign-in and contact
                                              entries on every account
  users relink --user EMAIL | --all           forget the identity-provider subject a user is bound to; the
                                              next sign-in with a verified e-mail binds again
  cls-credential issue --account CN [--cls ID]
                                              issue a credential for an elastic license server (default: the
                                              account's first); prints only the token
  cls-credential revoke --id CREDENTIAL_ID    revoke a license-server credential
  web-credentials issue --product NAME --part-number PN [--part-number PN ...]
                                              issue a credential of the web-license API (/web/v1) for a
                                              vendor product's part numbers; prints only the token
  web-credentials list [--json]               the web-license credentials (never their tokens)
  web-credentials revoke CREDENTIAL_ID        revoke a web-license credential
  reconcile [--account CN] [--json]           check the elastic ledger: session charges = draws + overage,
                                              entitlements' Used = draws + adjustments, rollups = ledger;
                                              exit code 1 when an account does not balance
  audit verify [--account CN] [--checkpoints DIR] [--public-key FILE] [--json]
                                              check the audit log's hash chains (every account's, or one)
                                              and the signed checkpoints of DIR (default AUDIT_CHECKPOINT_DIR):
                                              exits 1 naming the first entry affected of each broken chain
                                              (edited, missing, truncated, rolled back, rewritten) and each
                                              checkpoint file that cannot be trusted
  audit checkpoint [--json]                   check the chains against the last checkpoint and write a new
                                              signed one now (exit 1 when the check fails)
  fsa reconcile [--json]                      check the FSA ledger: every contract's budget = remaining + its
                                              order lines, and none overdrawn; exit code 1 when one is not
  migrate                                     apply the release's pending migrations (as a node does at its
                                              start, all or none) and name the last one applied
  backup --to FILE                            copy the PGlite database of DATA_DIR to FILE (a gzip tarball);
                                              the server must be stopped (PostgreSQL: pg_dump, see
                                              docs/operations.md); prints the rows of every table
  restore --from FILE                         put a backup into DATA_DIR's PGlite folder, which must be empty
                                              (move the old one aside); the next start migrates it
  simulate --url URL --token TOKEN [--rate N] [--duration S] [--backfill DAYS] [--heartbeat S]
           [--leave-active] [--seed S]
                                              drive a running portal's license-server API like an elastic
                                              license server: N sessions started per minute (default 30) for
                                              S seconds (default 60), heartbeats every S seconds (default 5),
                                              optionally DAYS of finished history first (default 0)
  web-simulate --account CN [--days N] [--seed S] [--heartbeat S] [--product NAME]
                                              a web licensing history for the account's directory: people
                                              sign in to its web seat pools through the working day, go idle,
                                              close browsers and are refused when pools are full, for N days
                                              (default 7) up to now, through the product API's service on a
                                              simulated clock (heartbeats every S seconds, default as the
                                              checkout answers; the sweep as its job would run); needs an
                                              active web credential of the pools (NAME: only that product's)
  license verify FILE --key KEYFILE | --keys-url URL
                                              check a license file's signatures offline, one verdict per
                                              line; KEYFILE is a PEM public key or the JSON of GET
                                              /api/license-keys (URL serves that JSON); exit code 1 when a
                                              line is bad
  license rotate-key                          retire the current license signing key and create a new one;
                                              prints the new key id (files signed earlier keep verifying).
                                              Needs the servers' PIN_ENCRYPTION_KEY (or DATA_DIR key file):
                                              with another key or none it changes nothing and exits 1

The database is the server's: DATABASE_URL (PostgreSQL) or the PGlite folder under DATA_DIR (default ./data).`;

const options = {
  sessions: { type: 'string' },
  seed: { type: 'string' },
  user: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  expires: { type: 'string' },
  id: { type: 'string' },
  json: { type: 'boolean' },
  account: { type: 'string' },
  cls: { type: 'string' },
  product: { type: 'string' },
  'part-number': { type: 'string', multiple: true },
  url: { type: 'string' },
  token: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string' },
  backfill: { type: 'string' },
  days: { type: 'string' },
  heartbeat: { type: 'string' },
  'leave-active': { type: 'boolean' },
  key: { type: 'string' },
  'keys-url': { type: 'string' },
  checkpoints: { type: 'string' },
  'public-key': { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseInteger(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

async function execute(argv: string[], io: CommandIo, say: Output): Promise<number> {
  const stdout = say.out;
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    stdout(USAGE);
    return 0;
  }
  const [command, sub, ...rest] = positionals;
  // `license verify FILE` and `web-credentials revoke ID` are the commands with an operand.
  const [file] =
    (command === 'license' && sub === 'verify') || (command === 'web-credentials' && sub === 'revoke')
      ? rest.splice(0, 1)
      : [];
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const allowed = (...names: (keyof typeof options)[]) => {
    for (const key of Object.keys(values) as (keyof typeof options)[]) {
      if (!names.includes(key))
        throw new UsageError(
          `option --${key} does not apply to "${[command, sub].filter(Boolean).join(' ')}"`,
        );
    }
  };

  let run: (database: Database, config: Config) => Promise<number>;
  if (command === 'seed' && sub === undefined) {
    allowed('sessions', 'seed');
    const sessions = parseInteger('sessions', values.sessions, 0, 100_000_000);
    const seedValue = parseInteger('seed', values.seed, -2_147_483_648, 2_147_483_647);
    run = async (database, config) =>
      (await import('./seed.ts')).seed(database, config, { sessions, seed: seedValue }, say);
  } else if (command === 'token' && sub === 'create') {
    allowed('user', 'expires', 'name');
    if (!values.user) throw new UsageError('token create needs --user EMAIL');
    const expires = parseInteger('expires', values.expires, 1, 3650);
    const { user, name } = values;
    run = async (database, config) => {
      if (expires !== undefined && expires > config.API_TOKEN_MAX_DAYS)
        throw new UsageError(
          `--expires must be at most ${config.API_TOKEN_MAX_DAYS} days (API_TOKEN_MAX_DAYS)`,
        );
      const options = { email: user, name, expiresInDays: expires ?? config.API_TOKEN_DEFAULT_DAYS };
      return (await import('./tokens.ts')).tokens.create(database.db, options, say);
    };
  } else if (command === 'users' && sub === 'add') {
    allowed('user', 'name', 'role');
    if (!values.user) throw new UsageError('users add needs --user EMAIL');
    const { user, name, role } = values;
    run = async (database, config) =>
      (await import('./users.ts')).users.add(
        database.db,
        config,
        { email: user, name, roles: role ?? [] },
        say,
      );
  } else if (command === 'users' && ['password-link', 'disable', 'enable', 'remove'].includes(sub ?? '')) {
    allowed('user');
    if (!values.user) throw new UsageError(`users ${sub} needs --user EMAIL`);
    const { user } = values;
    const action = sub as 'password-link' | 'disable' | 'enable' | 'remove';
    run = async (database, config) =>
      (await import('./users.ts')).users[action](database.db, config, user, say);
  } else if (command === 'users' && sub === 'relink') {
    allowed('user', 'all');
    if (Boolean(values.user) === Boolean(values.all))
      throw new UsageError('users relink needs either --user EMAIL or --all');
    const who = { email: values.user, all: Boolean(values.all) };
    run = async (database) => (await import('./users.ts')).users.relink(database.db, who, say);
  } else if (command === 'token' && sub === 'revoke') {
    allowed('user', 'id');
    if (Boolean(values.user) === Boolean(values.id))
      throw new UsageError('token revoke needs either --user EMAIL or --id TOKEN_ID');
    if (values.id && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(values.id)) {
      throw new UsageError(`--id must be a token id (a UUID), got "${values.id}"`);
    }
    const by = { user: values.user, id: values.id };
    run = async (database) => (await import('./tokens.ts')).tokens.revoke(database.db, by, say);
  } else if (command === 'users' && sub === 'list') {
    allowed('json');
    const json = Boolean(values.json);
    run = async (database) => (await import('./users.ts')).users.list(database.db, json, say);
  } else if (command === 'cls-credential' && sub === 'issue') {
    allowed('account', 'cls');
    if (!values.account) throw new UsageError('cls-credential issue needs --account CUSTOMER_NUMBER');
    const { account, cls } = values;
    run = async (database) => (await import('./elastic.ts')).elastic.issue(database.db, account, cls, say);
  } else if (command === 'cls-credential' && sub === 'revoke') {
    allowed('id');
    const id = values.id ?? '';
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      throw new UsageError(`--id must be a credential id (a UUID), got "${id}"`);
    run = async (database) => (await import('./elastic.ts')).elastic.revoke(database.db, id, say);
  } else if (command === 'web-credentials' && sub === 'issue') {
    allowed('product', 'part-number');
    const product = values.product ?? '';
    const partNumbers = values['part-number'] ?? [];
    if (!product.trim() || !partNumbers.length)
      throw new UsageError('web-credentials issue needs --product NAME and at least one --part-number PN');
    run = async (database) =>
      (await import('./web-credentials.ts')).webCredentials.issue(database.db, product, partNumbers, say);
  } else if (command === 'web-credentials' && sub === 'list') {
    allowed('json');
    const json = Boolean(values.json);
    run = async (database) =>
      (await import('./web-credentials.ts')).webCredentials.list(database.db, json, say);
  } else if (command === 'web-credentials' && sub === 'revoke') {
    allowed();
    const id = file ?? '';
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      throw new UsageError(`web-credentials revoke needs a credential id (a UUID), got "${id}"`);
    run = async (database) =>
      (await import('./web-credentials.ts')).webCredentials.revoke(database.db, id, say);
  } else if (command === 'reconcile' && sub === undefined) {
    allowed('account', 'json');
    const { account } = values;
    const json = Boolean(values.json);
    run = async (database) =>
      (await import('./elastic.ts')).elastic.reconcile(database.db, account, json, say);
  } else if (command === 'fsa' && sub === 'reconcile') {
    allowed('json');
    const json = Boolean(values.json);
    run = async (database) => {
      const rows = await (await import('@lp/server/features/fsa/service')).reconcileFsa(database.db);
      if (json) stdout(JSON.stringify(rows, null, 2));
      else {
        const n = (cents: number) => (cents / 100).toFixed(2).padStart(14);
        stdout(
          'account    contract              currency         budget          lines      remaining  balanced',
        );
        for (const r of rows)
          stdout(
            `${r.customerNumber.padEnd(11)}${r.contract.padEnd(22)}${r.currency.padEnd(9)}${n(r.budgetCents)} ${n(r.linesCents)} ${n(r.remainingCents)}  ${r.balanced ? 'yes' : 'NO'}`,
          );
        const bad = rows.filter((r) => !r.balanced).length;
        stdout(
          bad
            ? `${bad} of ${rows.length} contracts do not balance.`
            : `All ${rows.length} contracts balance.`,
        );
      }
      return rows.every((r) => r.balanced) ? 0 : 1;
    };
  } else if (command === 'audit' && sub === 'verify') {
    allowed('account', 'json', 'checkpoints', 'public-key');
    const { account, checkpoints, 'public-key': publicKey } = values;
    const json = Boolean(values.json);
    run = async (database, config) =>
      (await import('./audit.ts')).audit.verify(
        database.db,
        config,
        { account, checkpoints, publicKey, json },
        say,
      );
  } else if (command === 'audit' && sub === 'checkpoint') {
    allowed('json');
    const json = Boolean(values.json);
    run = async (database, config) =>
      (await import('./audit.ts')).audit.checkpoint(database.db, config, json, say);
  } else if (command === 'simulate' && sub === undefined) {
    allowed('url', 'token', 'rate', 'duration', 'backfill', 'heartbeat', 'leave-active', 'seed');
    if (!values.url || !values.token) throw new UsageError('simulate needs --url URL and --token TOKEN');
    try {
      new URL(values.url);
    } catch {
      throw new UsageError(`--url must be a URL, got "${values.url}"`);
    }
    // The simulator talks to a running portal over HTTP; it never opens the database.
    const { UsageSimulator } = await import('./simulate.ts');
    const simulator = new UsageSimulator(
      {
        url: values.url,
        token: values.token,
        rate: parseInteger('rate', values.rate, 0, 100_000) ?? 30,
        duration: parseInteger('duration', values.duration, 0, 86_400) ?? 60,
        backfillDays: parseInteger('backfill', values.backfill, 0, 400) ?? 0,
        heartbeat: parseInteger('heartbeat', values.heartbeat, 1, 3600) ?? 5,
        leaveActive: Boolean(values['leave-active']),
        seed: parseInteger('seed', values.seed, 0, 2_147_483_647) ?? 1,
      },
      say.err,
    );
    const result = await simulator.run();
    stdout(JSON.stringify(result));
    return 0;
  } else if (command === 'web-simulate' && sub === undefined) {
    allowed('account', 'days', 'seed', 'heartbeat', 'product');
    if (!values.account) throw new UsageError('web-simulate needs --account CUSTOMER_NUMBER');
    const args = {
      account: values.account,
      days: parseInteger('days', values.days, 1, 400) ?? 7,
      seed: parseInteger('seed', values.seed, 0, 2_147_483_647) ?? 1,
      heartbeat: parseInteger('heartbeat', values.heartbeat, 10, 3600),
      product: values.product,
    };
    run = async (database) => (await import('./web-simulate.ts')).webSimulate(database.db, args, say);
  } else if (command === 'license' && sub === 'verify') {
    allowed('key', 'keys-url');
    if (!file) throw new UsageError('license verify needs the license FILE');
    const { key, 'keys-url': keysUrl } = values;
    if (Boolean(key) === Boolean(keysUrl))
      throw new UsageError('license verify needs either --key FILE or --keys-url URL');
    // Offline: the published public keys and the file are all it needs, never the database.
    const license = await import('./license.ts');
    const keys = key ? await license.readPublicKeysFile(key) : await license.fetchPublicKeys(keysUrl!);
    return license.verifyLicenseFile(file, keys, stdout);
  } else if (command === 'migrate' && sub === undefined) {
    allowed();
    run = async (database) => (await import('./migrate.ts')).migrated(database, stdout);
  } else if ((command === 'backup' || command === 'restore') && sub === undefined) {
    const option = command === 'backup' ? 'to' : 'from';
    allowed(option);
    const file = values[option];
    if (!file) throw new UsageError(`${command} needs --${option} FILE`);
    // The copy is of the database as it is: opened without migrating it, by the commands themselves.
    const config = loadConfig(io.env);
    const commands = await import('./backup.ts');
    return commands[command](config, file, say);
  } else if (command === 'license' && sub === 'rotate-key') {
    allowed();
    run = async (database, config) => {
      const { rotateSigningKey } = await import('@lp/server/features/license-files/service');
      stdout(await rotateSigningKey({ db: database.db, config }));
      return 0;
    };
  } else {
    throw new UsageError(
      command ? `unknown command "${[command, sub].filter(Boolean).join(' ')}"` : 'no command given',
    );
  }

  const config = loadConfig(io.env);
  // Commands load only what they use: the database layer and the command's module cost seconds to import.
  const { DataDirLockedError, openDatabase } = await import('@lp/server/db/database');
  let database: Database;
  try {
    // Operator commands run to their end (a reseed, an audit over millions of entries): only connecting has a
    // deadline (decision 043).
    database = await openDatabase({
      ...config,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
      DATABASE_LOCK_TIMEOUT_MS: 0,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 0,
    });
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      throw new CommandError(
        `${e.message}\nThe CLI needs the database to itself when it uses PGlite: stop the running server (npm start) first, then retry.`,
      );
    }
    throw new CommandError(`Cannot open the database: ${(e as Error).message}`);
  }
  try {
    return await run(database, config);
  } finally {
    await database.close();
  }
}

/** Runs one command line; answers its exit code: 0 done, 1 the command failed, 2 bad arguments (usage printed). */
export async function runCommand(argv: string[], io: CommandIo): Promise<number> {
  const say: Output = {
    out: (line) => io.stdout.write(`${line}\n`),
    err: (line) => io.stderr.write(`${line}\n`),
  };
  try {
    return await execute(argv, io, say);
  } catch (e) {
    if (e instanceof UsageError) {
      say.err(`Error: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof CommandError || e instanceof ConfigError) {
      say.err(e.message);
      return 1;
    }
    // The sealing key did not open the database's secrets (decision 043): refused before any change.
    if (e instanceof AppError && e.operatorFix) {
      say.err(`${e.operatorFix}\nNothing was changed.`);
      return 1;
    }
    say.err((e as Error)?.stack ?? String(e));
    return 1;
  }
}
