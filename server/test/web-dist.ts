import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A built web app for `WEB_DIST`, in a folder of its own: each file (its path in the build → its content), the
 * folders made as needed. The folder is removed on cleanup. In a file fixture:
 * `.extend('webDist', { scope: 'file' }, async ({}, { onCleanup }) => writeWebDist(files, onCleanup))`, then
 * `.override('appEnv', { scope: 'file' }, async ({ webDist }) => ({ WEB_DIST: webDist }))`.
 */
export function writeWebDist(
  files: Record<string, string | Uint8Array>,
  onCleanup: (cleanup: () => void) => void,
): string {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-web-dist-'));
  onCleanup(() => fs.rmSync(webDist, { recursive: true, force: true }));
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(webDist, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return webDist;
}
