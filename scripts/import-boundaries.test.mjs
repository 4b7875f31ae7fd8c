// The import boundaries of decision 026 are Biome rules in biome.json, so `npm run lint` (biome check .) fails on
// a file that crosses one. These tests lint probe files laid out like the real tree, with the project's own
// biome.json and Biome binary, in a throw-away folder (nothing is written into the work tree).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const biomeBin = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');

const SERVER_CROSS = 'A server feature uses another feature only through its service.ts';
const SERVER_DETOUR = 'A server feature imports another feature as ../<feature>/service.ts';
const SERVER_WEB = 'The server never imports the web app';
const SERVER_SELF = 'Inside the server, import by relative path';
const SERVER_LOWER = 'platform/ and db/ sit below the features and never import one';
const WEB_SHARED = 'Shared components/ and lib/ never import a feature or the app shell';
const WEB_CROSS = 'A web feature uses another feature only through its api/ modules';
const WEB_DETOUR = 'A web feature imports another feature as ../<feature>/api/';
const WEB_APP = "Features read the shell's state only from app/customer-context.tsx and app/use-view-only.ts";
const WEB_SERVER = 'The browser never imports server code';
const WEB_SELF = 'Inside the web app, import by relative path';
const OUTSIDE = "Tools, benchmarks and browser tests call a feature's service, never its repository";
const NO_TEST_HELPERS = 'The operator CLI and the benchmarks never import test helpers';
const SHARED_PKGS = 'contract/ and domain/ are shared by the server and the browser and import neither';

/** [file the import is written in, the import's specifier, the message it must fail with or null when allowed] */
const cases = [
  // A server feature reaches another only through its service (or the account gate).
  ['server/src/features/credentials/probe.ts', '../ip-rules/repository.ts', SERVER_CROSS],
  ['server/src/features/credentials/probe.ts', '../cls-api/server-credentials.ts', SERVER_CROSS],
  ['server/src/features/credentials/probe.api.test.ts', '../ledger/repository.ts', SERVER_CROSS],
  ['server/src/features/credentials/probe.ts', '../ip-rules/service.ts', null],
  ['server/src/features/credentials/probe.ts', '../accounts/policy.ts', null],
  ['server/src/features/credentials/probe.ts', './repository.ts', null],
  ['server/src/features/credentials/probe.ts', '../../platform/errors.ts', null],
  ['server/src/features/credentials/probe.ts', '../../db/database.ts', null],
  ['server/src/features/credentials/probe.ts', '@lp/domain/credentials', null],
  ['server/src/features/auth/built-in-idp/probe.ts', '../../ledger/repository.ts', SERVER_CROSS],
  ['server/src/features/auth/built-in-idp/probe.ts', '../../ledger/service.ts', null],
  ['server/src/features/auth/built-in-idp/probe.ts', '../password.ts', null],
  // A detour up to features/ and down again is refused too (the globs see the specifier as written).
  ['server/src/features/credentials/probe.ts', '../../features/ip-rules/repository.ts', SERVER_DETOUR],
  ['server/src/features/credentials/probe.ts', '../../features/ip-rules/service.ts', SERVER_DETOUR],
  ['server/src/features/auth/built-in-idp/probe.ts', '../../../features/ledger/repository.ts', SERVER_DETOUR],
  ['server/src/features/credentials/probe.ts', '@lp/server/features/ip-rules/repository', SERVER_SELF],
  ['server/src/platform/probe.ts', '@lp/server/db/database', SERVER_SELF],
  ['server/src/features/credentials/probe.ts', '../../../../web/src/lib/api-client.ts', SERVER_WEB],
  ['server/src/app-probe.ts', '@lp/web/src/lib/api-client', SERVER_WEB],
  // platform/ and db/ never import a feature.
  ['server/src/platform/probe.ts', '../features/ledger/service.ts', SERVER_LOWER],
  ['server/src/platform/query/probe.ts', '../../features/transactions/resource.ts', SERVER_LOWER],
  ['server/src/db/probe.ts', '../features/accounts/policy.ts', SERVER_LOWER],
  ['server/src/platform/probe.ts', './errors.ts', null],
  // Shared web code never imports a feature or the shell.
  ['web/src/components/saved-view-grid/probe.ts', '../../features/prefs/api/table-prefs.ts', WEB_SHARED],
  ['web/src/lib/probe.ts', '../app/customer-context.tsx', WEB_SHARED],
  ['web/src/components/probe.tsx', './panels.tsx', null],
  // A web feature reaches another only through its api/ modules, and the shell only through its state.
  ['web/src/features/statements/pages/probe.tsx', '../../accounts/components/account-search.tsx', WEB_CROSS],
  ['web/src/features/statements/probe.ts', '../accounts/account-search-rules.ts', WEB_CROSS],
  ['web/src/features/statements/pages/probe.tsx', '../../transactions/api/usage.ts', null],
  [
    'web/src/features/statements/probe.ts',
    '../../features/accounts/components/account-search.tsx',
    WEB_DETOUR,
  ],
  ['web/src/features/statements/pages/probe.tsx', '../../../features/transactions/api/usage.ts', WEB_DETOUR],
  ['web/src/features/statements/pages/probe.tsx', '../api/statements.ts', null],
  ['web/src/features/statements/pages/probe.tsx', '../../../components/panels.tsx', null],
  ['web/src/features/statements/pages/probe.tsx', '../../../lib/api-client.ts', null],
  ['web/src/features/statements/pages/probe.tsx', '../../../app/customer-context.tsx', null],
  ['web/src/features/statements/pages/probe.tsx', '../../../app/use-view-only.ts', null],
  ['web/src/features/statements/pages/probe.tsx', '../../../app/router.tsx', WEB_APP],
  ['web/src/features/statements/probe.ts', '../../app/shell.tsx', WEB_APP],
  ['web/src/features/statements/probe.ts', '@lp/server/features/ledger/service', WEB_SERVER],
  ['web/src/app/probe.ts', '../../../server/src/platform/errors.ts', WEB_SERVER],
  ['web/src/features/statements/probe.ts', '@lp/web/src/features/accounts/account-search-rules.ts', WEB_SELF],
  // contract and domain are shared by both sides.
  ['domain/src/probe.ts', '@lp/server/app', SHARED_PKGS],
  ['contract/src/probe.ts', '../../web/src/lib/api-client.ts', SHARED_PKGS],
  ['domain/src/probe.ts', '@lp/contract/common/errors', null],
  // Tools and benchmarks use the server's services.
  ['tools/src/probe.ts', '@lp/server/features/ip-rules/repository', OUTSIDE],
  ['bench/probe.ts', '@lp/server/features/ledger/repository.ts', OUTSIDE],
  // Product tools and benchmarks share the harness with tests, never the test helpers.
  ['tools/src/probe.ts', '@lp/server/test/test-db', NO_TEST_HELPERS],
  ['bench/probe.ts', '@lp/server/test/api-fixture', NO_TEST_HELPERS],
  ['tools/src/probe.ts', '../test/scratch-db.ts', NO_TEST_HELPERS],
  ['bench/probe.ts', '@lp/server/harness/test-app', null],
  ['tools/src/probe.test.ts', '@lp/server/test/test-db', null],
  ['tools/src/probe.ts', '@lp/server/features/ip-rules/service', null],
];

/** Each case gets its own probe file, named after its index (probe-3.ts), so its diagnostics are its own. */
const probes = cases.map(([file, specifier, message], i) => ({
  file,
  specifier,
  message,
  probe: file.replace(/probe(\.[a-z.]+)$/, `probe-${i}$1`),
}));

let dir;
/** Runs the project's Biome in the probe folder (no git there, so no ignore file to read). */
const biome = (command, ...args) =>
  spawnSync(process.execPath, [biomeBin, command, '--vcs-enabled=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
/** Diagnostics by probe file: [{ category, message }]. */
let found;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-import-boundaries-'));
  fs.copyFileSync(path.join(root, 'biome.json'), path.join(dir, 'biome.json'));
  for (const { probe, specifier } of probes) {
    fs.mkdirSync(path.join(dir, path.dirname(probe)), { recursive: true });
    fs.writeFileSync(path.join(dir, probe), `import { x } from '${specifier}';\n\nexport const y = x;\n`);
  }
  // Two modules that import each other: the cycle rule must see them.
  fs.mkdirSync(path.join(dir, 'web/src/lib'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'web/src/lib/cycle-a.ts'),
    "import { b } from './cycle-b.ts';\n\nexport const a = () => b;\n",
  );
  fs.writeFileSync(
    path.join(dir, 'web/src/lib/cycle-b.ts'),
    "import { a } from './cycle-a.ts';\n\nexport const b = () => a;\n",
  );
  const run = biome('lint', '--reporter=json', '--max-diagnostics=none', '.');
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  found = new Map();
  for (const d of JSON.parse(json).diagnostics) {
    const list = found.get(d.location.path) ?? [];
    list.push({ category: d.category, message: d.message });
    found.set(d.location.path, list);
  }
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('import boundaries (decision 026)', () => {
  it("fails `biome check` (npm run lint) on a file importing another feature's internals, passes an allowed one", () => {
    const crossing = probes.find((c) => c.specifier === '../ip-rules/repository.ts');
    const failed = biome('check', crossing.probe);
    expect(failed.status).toBe(1);
    expect(failed.stderr + failed.stdout).toContain(SERVER_CROSS);
    const allowed = probes.find((c) => c.specifier === '../ip-rules/service.ts');
    const passed = biome('check', allowed.probe);
    expect(passed.stderr + passed.stdout).not.toContain('noRestrictedImports');
    expect(passed.status).toBe(0);
  });

  it.each(probes.filter((c) => c.message))('$file must not import $specifier', ({ probe, message }) => {
    expect(found.get(probe)).toEqual([
      { category: 'lint/style/noRestrictedImports', message: expect.stringContaining(message) },
    ]);
  });

  it.each(probes.filter((c) => !c.message))('$file may import $specifier', ({ probe }) => {
    expect(found.get(probe) ?? []).toEqual([]);
  });

  it('reports import cycles', () => {
    for (const file of ['web/src/lib/cycle-a.ts', 'web/src/lib/cycle-b.ts'])
      expect(found.get(file)).toEqual([
        { category: 'lint/suspicious/noImportCycles', message: expect.any(String) },
      ]);
  });
});

/** Feature folders the per-depth overrides in biome.json cover: a deeper file would escape the rules. */
describe('feature folders stay within the depth the rules cover', () => {
  const deepest = (folder) => {
    const out = [];
    const walk = (d, depth) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p, depth + 1);
        else if (/\.(ts|tsx)$/.test(e.name) && depth > 1) out.push(path.relative(root, p));
      }
    };
    for (const feature of fs.readdirSync(folder)) walk(path.join(folder, feature), 0);
    return out;
  };
  it('server/src/features/<feature>/ has at most one level of sub-folders', () => {
    expect(deepest(path.join(root, 'server/src/features'))).toEqual([]);
  });
  it('web/src/features/<feature>/ has at most one level of sub-folders', () => {
    expect(deepest(path.join(root, 'web/src/features'))).toEqual([]);
  });
});
