import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateLicenseFiles } from '@lp/domain/license-file';
import { createSigningKey, signer } from '@lp/domain/license-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../test/run-cli.ts';
import { CommandError } from './errors.ts';
import { readPublicKeys } from './license.ts';

const key = createSigningKey();
const retired = createSigningKey();
const published = {
  status: 'SUCCESS',
  data: [
    { keyId: key.keyId, publicKeyPem: key.publicKeyPem, createdAt: '2026-11-01T00:00:00Z', retiredAt: null },
    {
      keyId: retired.keyId,
      publicKeyPem: retired.publicKeyPem,
      createdAt: '2025-01-01T00:00:00Z',
      retiredAt: '2026-11-01T00:00:00Z',
    },
  ],
};

const feature = (featureName: string, activationId: string) => ({
  product: featureName,
  activationId,
  featureName,
  daemon: 'simlmd',
  count: 5,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  versionDate: null,
  borrowable: false,
});
const { text } = generateLicenseFiles(
  {
    servers: [{ name: 'licsrv01', type: 'ETHERNET', id: '0050569a1b2c' }],
    customerNumber: '00123456',
    issued: '2026-01-08',
    features: [feature('solver', 'A-1'), feature('mesher', 'A-2')],
  },
  signer(key.keyId, key.privateKeyPem),
);

let dir: string;
const file = (name: string, content: string) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, content);
  return at;
};

/** Runs the command (in this process); no database settings at all, since verifying works offline. */
function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, { env: { PATH: process.env.PATH, DATA_DIR: path.join(dir, 'no-database') } });
}

let keysServer: http.Server;
let keysUrl: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-license-'));
  keysServer = http.createServer((request, response) => {
    if (request.url !== '/api/license-keys') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(published));
  });
  await new Promise<void>((resolve) => keysServer.listen(0, '127.0.0.1', resolve));
  keysUrl = `http://127.0.0.1:${(keysServer.address() as AddressInfo).port}/api/license-keys`;
});
afterAll(async () => {
  await new Promise((resolve) => keysServer.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run cli -- license verify', () => {
  it('passes a signed file with the PEM public key: a verdict per line, exit 0', async () => {
    const r = await cli(
      'license',
      'verify',
      file('good.lic', text),
      '--key',
      file('key.pem', key.publicKeyPem),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const at = path.join(dir, 'good.lic');
    expect(r.stdout).toBe(
      [
        `line 5: INCREMENT solver: valid (key ${key.keyId})`,
        `line 11: INCREMENT mesher: valid (key ${key.keyId})`,
        `${at}: all 2 feature lines valid`,
        '',
      ].join('\n'),
    );
  });

  it('fails a tampered file, naming the line, with the keys as GET /api/license-keys publishes them', async () => {
    const tampered = file(
      'tampered.lic',
      text.replace('mesher simlmd 2026.1231 31-dec-2026 5', 'mesher simlmd 2026.1231 31-dec-2026 50'),
    );
    const r = await cli('license', 'verify', tampered, '--key', file('keys.json', JSON.stringify(published)));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`line 5: INCREMENT solver: valid (key ${key.keyId})\n`);
    expect(r.stdout).toContain(`line 11: INCREMENT mesher: INVALID (key ${key.keyId}) - `);
    expect(r.stdout).toContain('1 bad line; 1 of 2 feature lines valid');
  });

  it('fetches the keys with --keys-url and names a key it was not given', async () => {
    const good = file('fetched.lic', text);
    expect((await cli('license', 'verify', good, '--keys-url', keysUrl)).code).toBe(0);
    const other = createSigningKey();
    const r = await cli('license', 'verify', good, '--key', file('other.pem', other.publicKeyPem));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`line 5: INCREMENT solver: UNKNOWN KEY (key ${key.keyId})`);
  });

  it('refuses to run without keys (usage, exit 2) and reports a missing file (exit 1)', async () => {
    const noKey = await cli('license', 'verify', file('x.lic', text));
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('license verify needs either --key FILE or --keys-url URL');
    const missing = await cli(
      'license',
      'verify',
      path.join(dir, 'nope.lic'),
      '--key',
      file('k.pem', key.publicKeyPem),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read');
  });
});

describe('readPublicKeys', () => {
  it('reads PEM keys by their key id and the published JSON, retired keys included', () => {
    expect(readPublicKeys(`${key.publicKeyPem}${retired.publicKeyPem}`, 'keys.pem')).toEqual({
      [key.keyId]: key.publicKeyPem,
      [retired.keyId]: retired.publicKeyPem,
    });
    expect(readPublicKeys(JSON.stringify(published), 'keys.json')).toEqual({
      [key.keyId]: key.publicKeyPem,
      [retired.keyId]: retired.publicKeyPem,
    });
  });

  it.each([
    ['hello', /neither a PEM public key nor the JSON/],
    ['{"status":"FAILURE","err":"x"}', /expected \{"status": "SUCCESS"/],
    ['{"status":', /not JSON/],
    ['{"status":"SUCCESS","data":[{"keyId":"x"}]}', /data\[0\] needs a keyId and a publicKeyPem/],
    ['{"status":"SUCCESS","data":[]}', /no keys/],
    ['-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', /not a public key/],
  ])('refuses %j', (content, message) => {
    expect(() => readPublicKeys(content, 'keys')).toThrow(CommandError);
    expect(() => readPublicKeys(content, 'keys')).toThrow(message);
  });
});
