// `node scripts/build-server.mjs` (part of `npm run build`): compiles the server and the operator CLI to plain
// JavaScript in server/dist (decision 054), so production runs `node server/dist/main.js` with no TypeScript
// loader. The workspace packages (@lp/contract, @lp/domain, @lp/server: their "exports" point at .ts files) are
// bundled in; every npm package stays an import that Node resolves from node_modules at run time.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

const outdir = path.join(root, 'server', 'dist');

/** Entry points: output name → source. The CLI sits beside the server so both resolve the same node_modules. */
const entries = {
  main: 'server/src/main.ts',
  cli: 'tools/src/cli.ts',
  tracing: 'server/src/platform/tracing.ts',
  'node-version': 'server/src/platform/node-version.ts',
};

// Code may read files next to its source through import.meta.url (migrations in server/drizzle, web/dist, the
// root package.json). In a bundle import.meta.url would name server/dist/<entry>.js, so each source file's
// import.meta.url is rewritten to the URL its source file has: the same relative paths keep working, from any
// checkout, as long as server/dist stays in the tree it was built in.
const sourceUrls = {
  name: 'source-relative-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      const unsupported = text.match(/import\.meta\.(dirname|filename|resolve)|\b__dirname\b|\b__filename\b/);
      if (unsupported)
        return {
          errors: [
            {
              text: `${unsupported[0]} would name the bundle, not this file: use import.meta.url (rewritten by scripts/build-server.mjs)`,
            },
          ],
        };
      const fromOut = path.relative(outdir, args.path).split(path.sep).join('/');
      const contents = text.replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`,
      );
      return { contents, loader: 'ts' };
    });
  },
};

// A bundle's imports of npm packages all run before any of its own code, so tracing (imported first by main.ts to
// start the OpenTelemetry SDK before node:http, pg and fastify load) would come too late to patch them. It stays a
// module of its own that main.js imports first: ESM evaluates it, top-level await included, before the next import.
const tracingFirst = {
  name: 'tracing-first',
  setup(build) {
    // The Node.js version check likewise: it must refuse an old Node before any package loads.
    build.onResolve({ filter: /\/platform\/(tracing|node-version)(\.ts)?$/ }, (args) =>
      args.kind === 'entry-point'
        ? undefined
        : { path: `./${/(tracing|node-version)(\.ts)?$/.exec(args.path)?.[1]}.js`, external: true },
    );
  },
};

// npm packages are left to Node (their own import.meta.url, native parts, wasm and data files stay where they are);
// only our workspace packages are compiled in.
const npmExternal = {
  name: 'npm-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@lp/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Builds server/dist/main.js and server/dist/cli.js with their source maps and esbuild's metafile (meta.json). */
async function buildServer() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    bundle: true,
    format: 'esm',
    // What main.ts and cli.ts import dynamically goes into chunks of its own, loaded when it is imported: a server
    // checks its settings (and starts tracing) before the app's packages load, and refuses a bad one at once.
    // Without splitting, the imports of the whole bundle would be hoisted above tracing's.
    splitting: true,
    // Beside the entry points: the rewritten import.meta.url paths are relative to this folder.
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: 'node24',
    sourcemap: 'linked',
    // Stack traces map to the files in the repository; the sources are there, the map need not carry them.
    sourcesContent: false,
    // Class and function names appear in logs and error names; bundling must not rename them.
    keepNames: true,
    plugins: [tracingFirst, npmExternal, sourceUrls],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  fs.mkdirSync(outdir, { recursive: true });
  // Written beside and renamed over: a server starting (or a second build) never reads a half-written file.
  // Maps first, the entry points last, so a complete main.js always has its map.
  const files = [...result.outputFiles].sort(
    (a, b) => Number(a.path.endsWith('.js')) - Number(b.path.endsWith('.js')),
  );
  const meta = { path: path.join(outdir, 'meta.json'), contents: JSON.stringify(result.metafile) };
  for (const file of [meta, ...files]) {
    const temp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, file.contents);
    fs.renameSync(temp, file.path);
  }
  // Chunks of earlier builds (their names carry a hash of their content) are no one's any more.
  const current = new Set([meta, ...files].map((f) => f.path));
  for (const name of fs.readdirSync(outdir))
    if (/\.js(\.map)?$/.test(name) && !current.has(path.join(outdir, name)))
      fs.rmSync(path.join(outdir, name), { force: true });
}

const started = performance.now();
await buildServer();
console.log(`Compiled the server to server/dist in ${Math.round(performance.now() - started)} ms`);
