import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLease } from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { buildAccountFixture } from '../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

/*
 * Issue 20 §7: malformed multipart uploads answered 500 (no boundary, truncated body, NUL in a field). Both
 * upload routes read their form through platform/multipart.ts: every malformed body is a 4xx in the envelope.
 */

const CN = '4600001';
const B = 'lp-boundary';
let database: TestDatabase;
let app: FastifyInstance;
let boss: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ boss } = await buildAccountFixture(database.db, CN, '4600002'));
  await buildLease(database.db, CN, 'MP-LEASE');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const hostFile = 'SERVER licsrv01 0050569a1b2c 27000\nVENDOR cfdlmd\n';
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (content = hostFile, name = 'file') =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="host.lic"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const end = `--${B}--\r\n`;
const ok = `multipart/form-data; boundary=${B}`;

const send = (url: string, contentType: string, payload: string) =>
  app.inject({ method: 'POST', url, headers: { ...boss, 'content-type': contentType }, payload });

/** Bodies for /api/uploadserverid (file and customerNumber); each must be refused with the status given. */
const malformed: [string, string, string, number][] = [
  ['no boundary', 'multipart/form-data', field('customerNumber', CN) + file() + end, 400],
  ['an empty boundary', 'multipart/form-data; boundary=', field('customerNumber', CN) + file() + end, 400],
  ['a boundary longer than the parser takes', `multipart/form-data; boundary=${'b'.repeat(200)}`, 'x', 400],
  ['a body cut in the middle of a part', ok, (field('customerNumber', CN) + file()).slice(0, 120), 400],
  ['a body without its closing boundary', ok, field('customerNumber', CN) + file(), 400],
  ['text that is not multipart at all', ok, 'garbage', 400],
  ['NUL in a form field', ok, field('customerNumber', `46\u000000001`) + file() + end, 400],
  ['NUL in a field name', ok, field('customer\u0000Number', CN) + file() + end, 400],
  ['NUL in the file', ok, field('customerNumber', CN) + file('SERVER a\u0000b 0050569a1b2c\n') + end, 400],
  [
    'the file under another field name',
    ok,
    field('customerNumber', CN) + file(hostFile, 'upload') + end,
    400,
  ],
  ['an unknown field', ok, field('customerNumber', CN) + field('extra', '1') + file() + end, 400],
  ['a field twice', ok, field('customerNumber', CN) + field('customerNumber', CN) + file() + end, 400],
  ['two files', ok, field('customerNumber', CN) + file() + file() + end, 400],
  [
    'fifty fields',
    ok,
    Array.from({ length: 50 }, (_, i) => field(`f${i}`, 'v')).join('') + file() + end,
    400,
  ],
  ['a field of 2 MB', ok, field('customerNumber', 'x'.repeat(2_000_000)) + file() + end, 400],
  [
    'a part header of 200 kB',
    ok,
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\nX-Pad: ${'a'.repeat(200_000)}\r\n\r\nx\r\n${end}`,
    400,
  ],
  ['a file over 1 MB', ok, field('customerNumber', CN) + file('#'.repeat(1_048_577)) + end, 413],
  ['no file', ok, field('customerNumber', CN) + end, 400],
  // The parser never drains such a part past its buffer: answered once the body stops moving (UPLOAD_IDLE_MS).
  [
    'a large part that is not form-data',
    ok,
    `${field('customerNumber', CN)}--${B}\r\nContent-Disposition: attachment; name="a"\r\n\r\n${'x'.repeat(300_000)}\r\n${end}`,
    400,
  ],
];

describe('malformed multipart uploads', () => {
  it('a well-formed upload still reads the host', async () => {
    const res = await send('/api/uploadserverid', ok, field('customerNumber', CN) + file() + end);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ serverName: 'licsrv01', serverId: '0050569a1b2c' });
  });

  for (const url of ['/api/uploadserverid', '/api/license-files/verify']) {
    it(`${url} answers every malformed body with a 4xx in the envelope`, async () => {
      const answers = [];
      for (const [what, contentType, payload, status] of malformed) {
        // The verify form has only the file: its bodies leave the customerNumber field out.
        const body = url.endsWith('verify') ? payload.replace(field('customerNumber', CN), '') : payload;
        const res = await send(url, contentType, body);
        answers.push({ what, status: res.statusCode, envelope: res.json().status });
        expect.soft({ what, status: res.statusCode }, res.body).toEqual({ what, status });
      }
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      expect(answers.filter((a) => a.envelope !== 'FAILURE')).toEqual([]);
    });
  }

  it('says what is wrong', async () => {
    const texts = async (...bodies: [string, string][]) => {
      const out = [];
      for (const [type, body] of bodies) out.push((await send('/api/uploadserverid', type, body)).json().err);
      return out;
    };
    expect(
      await texts(
        ['multipart/form-data', file() + end],
        [ok, field('customerNumber', `46\u000000001`) + file() + end],
        [ok, field('customerNumber', CN) + file(hostFile, 'upload') + end],
        [ok, field('customerNumber', CN) + file() + file() + end],
      ),
    ).toEqual([
      'The upload is not well-formed: send the file as multipart/form-data (fields file and customerNumber).',
      'Invalid request: customerNumber: text must not contain NUL characters',
      'The form takes only the fields file and customerNumber, each once.',
      'Send one file (field file).',
    ]);
  });
});
