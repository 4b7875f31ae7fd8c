// `node --import ./module-log.mjs …` (tests): writes the URL of every module the process resolved, by import or
// require, one a line, to the file LP_MODULE_LOG names when the process exits. Plain JavaScript: it must load
// without any TypeScript loader, since it watches for one.
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const urls = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    urls.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => fs.writeFileSync(process.env.LP_MODULE_LOG, [...urls].join('\n')));
