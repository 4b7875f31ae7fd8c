import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/*
 * The deployment files of docs/deploy (docs/operations.md, decision 056) stay in step with the server: an operator
 * who fills in the settings file's placeholders gets a production node that starts, and the systemd unit runs the
 * compiled server with a stop timeout above the shutdown grace. (The nginx file is run by e2e/tests/https-proxy.)
 */

const deploy = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/deploy');

/** KEY=value lines as systemd's EnvironmentFile and sh read them (# starts a comment, "…" holds spaces). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const at = line.indexOf('=');
    expect(at, `a KEY=value line: ${line}`).toBeGreaterThan(0);
    const value = line.slice(at + 1);
    // Spaces only inside double quotes: otherwise sh would run the rest of the line as a command.
    expect(/^"[^"$`\\]*"$/.test(value) || !/\s/.test(value), `quoted if it has spaces: ${line}`).toBe(true);
    env[line.slice(0, at)] = value.replace(/^"(.*)"$/, '$1');
  }
  return env;
}

/** What an operator types for each <placeholder>: a key of 64 hex digits, else a secret of their own. */
const filledIn = (value: string) =>
  value.replace(/<64-hex-digits>/g, 'a1'.repeat(32)).replace(/<[a-z0-9-]+>/g, 'operator-secret');

describe('docs/deploy/licensing-portal.env', () => {
  const shipped = readEnvFile(path.join(deploy, 'licensing-portal.env'));

  it('starts a production node on PostgreSQL with an outside provider behind a proxy once filled in', () => {
    const env = Object.fromEntries(Object.entries(shipped).map(([k, v]) => [k, filledIn(v)]));
    const config = loadConfig(env);
    expect(config).toMatchObject({
      production: true,
      builtInIdp: false,
      cookieSecure: true,
      seedDemo: false,
      publicUrl: 'https://licensing.example.com',
      TRUST_PROXY: ['10.0.0.10'],
    });
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(config.SMTP_URL).toMatch(/^smtp:\/\//);
    expect(config.MAIL_FROM).toBe('Licensing Portal <licensing@example.com>');
    // Every line is a setting the server reads (a misspelt name would be ignored without a word).
    expect(Object.keys(shipped).filter((k) => !(k in config) && k !== 'NODE_ENV')).toEqual([]);
  });

  it('reads the same in a shell as in systemd (the CLI is run from a shell with it)', () => {
    const filled = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lp-env-')), 'env');
    const text = fs.readFileSync(path.join(deploy, 'licensing-portal.env'), 'utf8');
    fs.writeFileSync(filled, filledIn(text));
    const printed = execFileSync('sh', ['-c', 'set -a; . "$0"; exec env -0', filled], { env: {} }).toString();
    fs.rmSync(path.dirname(filled), { recursive: true });
    const fromShell = Object.fromEntries(
      printed
        .split('\0')
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
    for (const [key, value] of Object.entries(shipped)) expect(fromShell[key], key).toBe(filledIn(value));
  });

  it('is refused as shipped, so a node never starts with the placeholders', () => {
    expect(() => loadConfig(shipped)).toThrowError(/PIN_ENCRYPTION_KEY/);
  });
});

describe('docs/deploy/licensing-portal.service', () => {
  const unit = fs.readFileSync(path.join(deploy, 'licensing-portal.service'), 'utf8');
  const directive = (name: string) => unit.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1];

  it('runs the compiled server directly, with the settings file, and waits out the graceful stop', () => {
    expect(directive('ExecStart')).toMatch(/^\/usr\/bin\/node( --[a-z-]+)* server\/dist\/main\.js$/);
    expect(directive('EnvironmentFile')).toBe('/etc/licensing-portal/env');
    expect(directive('KillSignal')).toBe('SIGTERM');
    const stopSeconds = Number(directive('TimeoutStopSec'));
    // The node exits by itself SHUTDOWN_GRACE_MS + 10 s after SIGTERM at the latest (main.ts, decision 054).
    expect(stopSeconds * 1000).toBeGreaterThan(loadConfig({}).SHUTDOWN_GRACE_MS + 10_000);
    // Exit code 2 is a refused configuration (main.ts): restarting would not fix it.
    expect(directive('RestartPreventExitStatus')).toBe('2');
  });
});
