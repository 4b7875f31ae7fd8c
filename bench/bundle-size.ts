/**
 * Reports gzip sizes of the built web app (run `npm run build -w @lp/web` first; this builds nothing):
 * the entry chunk, what the shell needs before its first render (entry + the modulepreloads and
 * stylesheets of index.html), and each lazily loaded chunk with the chunks it pulls in that the shell
 * has not loaded yet. Writes the "## Bundle size" section of docs/benchmarks.md.
 *
 *   npx tsx bench/bundle-size.ts [--no-write]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web/dist');
const docs = path.join(root, 'docs/benchmarks.md');
const TARGET_KB = 350;

if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('web/dist/index.html is missing: run `npm run build -w @lp/web` first');
  process.exit(1);
}

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const local = (url: string | undefined) => (url?.startsWith('/') ? url.slice(1) : url);

const entry = local(
  tags.filter((t) => t.startsWith('<script') && /type="module"/.test(t)).map((t) => attr(t, 'src'))[0],
);
if (!entry) throw new Error('no module entry script in web/dist/index.html');
const preloads = tags
  .filter((t) => /rel="modulepreload"/.test(t))
  .map((t) => local(attr(t, 'href')))
  .filter((x): x is string => !!x);
const styles = tags
  .filter((t) => /rel="stylesheet"/.test(t))
  .map((t) => local(attr(t, 'href')))
  .filter((x): x is string => !!x);

const sizeCache = new Map<string, { raw: number; gzip: number }>();
function size(file: string) {
  let s = sizeCache.get(file);
  if (!s) {
    const buf = fs.readFileSync(path.join(dist, file));
    s = { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
    sizeCache.set(file, s);
  }
  return s;
}

/** Static imports of a chunk (what loads with it), as dist-relative paths. */
function staticImports(file: string): string[] {
  const code = fs.readFileSync(path.join(dist, file), 'utf8');
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    found.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])));
  }
  return [...found];
}

function closure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length) {
    const f = stack.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...staticImports(f));
  }
  return seen;
}

const shellJs = closure([entry, ...preloads]);
const shellFiles = [...shellJs, ...styles];
const shellGzip = shellFiles.reduce((n, f) => n + size(f).gzip, 0);

const allJs = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
/** Chunks that are only loaded later (dynamic import of a route or a library group). */
const lazy = allJs.filter((f) => !shellJs.has(f));
const lazyRows = lazy
  .map((f) => {
    const extra = [...closure([f])].filter((d) => !shellJs.has(d));
    return { file: f, own: size(f).gzip, withDeps: extra.reduce((n, d) => n + size(d).gzip, 0) };
  })
  .sort((a, b) => b.withDeps - a.withDeps);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const chunkName = (f: string) =>
  path
    .basename(f)
    .replace(/-[\w-]{8}\.js$/, '')
    .replace(/\.js$/, '');

const lines: string[] = [];
lines.push('## Bundle size', '');
lines.push(
  `Measured by \`npx tsx bench/bundle-size.ts\` after \`npm run build -w @lp/web\` (gzip level 9). Updated ${new Date().toISOString().slice(0, 10)}.`,
  '',
);
lines.push(
  `Target: the shell before first render <= ${TARGET_KB} KB gzip — **${shellGzip / 1024 <= TARGET_KB ? 'met' : 'NOT met'}** (${kb(shellGzip)}).`,
  '',
);
lines.push('| What | Files | gzip |', '|---|---|---|');
lines.push(`| Entry chunk | ${path.basename(entry)} | ${kb(size(entry).gzip)} |`);
lines.push(
  `| Stylesheets | ${styles.map((s) => path.basename(s)).join(', ') || '-'} | ${kb(styles.reduce((n, f) => n + size(f).gzip, 0))} |`,
);
lines.push(
  `| Shell before first render (entry + static imports/modulepreloads + CSS) | ${shellFiles.length} files | ${kb(shellGzip)} |`,
);
lines.push(
  '',
  'Lazy chunks (routes and the libraries only routes use), with the chunks each pulls in beyond the shell:',
  '',
);
lines.push('| Chunk | own gzip | with its not-yet-loaded imports |', '|---|---|---|');
for (const r of lazyRows) lines.push(`| ${chunkName(r.file)} | ${kb(r.own)} | ${kb(r.withDeps)} |`);
const section = `${lines.join('\n')}\n`;

console.log(section);

if (!process.argv.includes('--no-write')) {
  const current = fs.existsSync(docs) ? fs.readFileSync(docs, 'utf8') : '# Benchmarks\n';
  // Replace only this section: from its heading to the next "## " heading (another tool owns the others).
  const start = current.search(/^## Bundle size\s*$/m);
  let next: string;
  if (start === -1) {
    next = `${current.replace(/\s*$/, '')}\n\n${section}`;
  } else {
    const rest = current.slice(start + 1);
    const endRel = rest.search(/^## /m);
    const end = endRel === -1 ? current.length : start + 1 + endRel;
    next = `${current.slice(0, start)}${section}${end < current.length ? `\n${current.slice(end)}` : ''}`;
  }
  fs.writeFileSync(docs, next);
  console.log(`updated ${path.relative(root, docs)}`);
}

if (shellGzip / 1024 > TARGET_KB) process.exitCode = 1;
