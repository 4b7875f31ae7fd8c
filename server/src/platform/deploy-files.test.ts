import fs from 'node:fs';
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

/** KEY=value lines as systemd's EnvironmentFile reads them (no quotes; # starts a comment line). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const at = line.indexOf('=');
    expect(at, `a KEY=value line: ${line}`).toBeGreaterThan(0);
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/** What an operator types for each <placeholder>: a key of 64 hex digits, else a secret of their own. */
const filledIn = (value: string) =>
  value.replace(/<64 hex digits>/g, 'a1'.repeat(32)).replace(/<[^>]+>/g, 'operator-secret');

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
    // Every line is a setting the server reads (a misspelt name would be ignored without a word).
    expect(Object.keys(shipped).filter((k) => !(k in config) && k !== 'NODE_ENV')).toEqual([]);
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
    // The node exits by itself 10 s after SIGTERM at the latest (main.ts), after SHUTDOWN_GRACE_MS for requests.
    expect(stopSeconds * 1000).toBeGreaterThan(Math.max(loadConfig({}).SHUTDOWN_GRACE_MS, 10_000));
    // Exit code 2 is a refused configuration (main.ts): restarting would not fix it.
    expect(directive('RestartPreventExitStatus')).toBe('2');
  });
});
