import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseHostId, parseFlexlmHostId, validateHostId } from './host-ids.ts';
import { fakeSigner, licenseServers } from './license-corpus/arbitraries.ts';
import { generateLicenseFiles } from './license-file.ts';
import { type FeatureLine, parseHostUpload, parseLicenseText } from './license-file-parse.ts';

const corpus = (name: string) =>
  fs.readFileSync(new URL(`./license-corpus/${name}`, import.meta.url), 'utf8');
const keyed = (line: FeatureLine, key: string) => line.tokens.find((t) => t.key === key)?.value;

describe('parseLicenseText on real-world shapes', () => {
  it('reads a pre-v6 file: DAEMON, tabs, upper-case months, one-digit days, a legacy key, year 0', () => {
    const parsed = parseLicenseText(corpus('daemon-legacy.lic'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toMatchObject([{ line: 3, host: 'hostA', hostId: '0800200005AC', port: 1700 }]);
    expect(parsed.vendors).toMatchObject([{ line: 4, name: 'simlmd' }]);
    expect(parsed.features).toMatchObject([
      {
        line: 5,
        keyword: 'FEATURE',
        name: 'solver',
        terms: { version: '1.000', expires: '2015-11-04', count: 10 },
      },
      { line: 7, keyword: 'FEATURE', name: 'mesher', terms: { expires: 'permanent', count: 'uncounted' } },
    ]);
    expect(keyed(parsed.features[0], 'ISSUED')).toBe('4-Nov-2014');
    expect(parsed.features[0].text).toBe(
      'FEATURE\tsolver\tsimlmd\t1.000\t4-NOV-2015\t10\t2B4C6D8E0F1234567890 \\\n\tISSUED=4-Nov-2014 ck=123',
    );
    expect(parsed.lines.map((line) => line.type)).toEqual([
      'comment',
      'comment',
      'server',
      'vendor',
      'feature',
      'feature',
    ]);
  });

  it('reads a triad with PACKAGE, UPGRADE, SIGN and SIGN2 wrapped inside their quotes and # inside quotes', () => {
    const parsed = parseLicenseText(corpus('triad-sign2.lic'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.map((s) => [s.host, s.hostId, s.port])).toEqual([
      ['lic1', '11223344AABB', 27000],
      ['lic2', '11223355aacc', 27000],
      ['lic3', 'bbaadd112233', 27000],
    ]);
    const [pkg, suite, upgrade] = parsed.features;
    expect(pkg).toMatchObject({ keyword: 'PACKAGE', name: 'suite', vendor: 'simlmd', terms: null, line: 8 });
    expect(keyed(pkg, 'COMPONENTS')).toBe('solver mesher:2023.0 post');
    expect(suite).toMatchObject({
      keyword: 'INCREMENT',
      line: 11,
      terms: { version: '2023.0', expires: '2023-12-31', count: 25 },
    });
    expect(keyed(suite, 'NOTICE')).toBe('Acme # Research Lab');
    expect(keyed(suite, 'BORROW')).toBe('720');
    expect(keyed(suite, 'SIGN')?.replace(/\s+/g, ' ')).toBe(
      '1111 2222 3333 4444 5555 6666 7777 8888 9999 AAAA BBBB CCCC',
    );
    expect(keyed(suite, 'SIGN2')?.replace(/\s+/g, ' ')).toBe(
      '0123 4567 89AB CDEF 0123 4567 89AB CDEF 0123 4567 89AB CDEF',
    );
    expect(upgrade).toMatchObject({
      keyword: 'UPGRADE',
      name: 'solver',
      terms: { version: '2023.0', expires: 'permanent', count: 5 },
    });
  });

  it('reads node-locked uncounted lines with a quoted multi-id HOSTID and no SERVER line', () => {
    const parsed = parseLicenseText(corpus('node-locked.lic'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toEqual([]);
    expect(parsed.features.map((f) => [f.name, f.terms?.count, keyed(f, 'HOSTID')])).toEqual([
      ['viewer', 'uncounted', '0050569a1b2c DISK_SERIAL_NUM=3e2e17fd'],
      ['dongle', 'uncounted', 'FLEXID=9-6b3366b2'],
    ]);
  });

  it('reads CRLF line ends and keyed host ids on SERVER lines', () => {
    const parsed = parseLicenseText(corpus('disk-serial-crlf.lic'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers).toMatchObject([{ host: 'srv', hostId: 'DISK_SERIAL_NUM=3e2e17fd', port: 1055 }]);
    expect(parsed.features).toMatchObject([{ line: 4, text: expect.not.stringContaining('\r') }]);
  });

  it('names the line of what does not read, and never throws', () => {
    const parsed = parseLicenseText(
      [
        'SERVER lic1',
        'VENDOR',
        'INCREMENT solver simlmd 2026.1231 31-feb-2026 5',
        'INCREMENT solver simlmd 2026.1231 31-dec-2026 five',
        'INCREMENT solver',
        'FEATURE solver simlmd 1.0',
        'hello world',
        'INCREMENT x simlmd 1.0 permanent 1 NOTICE="open',
        '# a comment that ends in a backslash \\',
        'USE_SERVER',
        '\\',
        '',
      ].join('\n'),
    );
    expect(parsed.problems).toEqual([
      { line: 1, message: 'SERVER needs a host name and a host id' },
      { line: 2, message: 'VENDOR needs a vendor daemon name' },
      { line: 3, message: 'expiry date "31-feb-2026" is not dd-mmm-yyyy or permanent' },
      { line: 4, message: 'count "five" is not a number or uncounted' },
      { line: 5, message: 'INCREMENT needs a feature name and a vendor daemon' },
      { line: 6, message: 'FEATURE needs a version, an expiry date and a count' },
      { line: 7, message: '"hello" is not a license file line (SERVER, VENDOR, INCREMENT…)' },
      { line: 8, message: 'a quoted value is not closed (a " is missing)' },
    ]);
    // The comment did not swallow USE_SERVER.
    expect(parsed.lines.map((line) => line.type).slice(-2)).toEqual(['comment', 'use-server']);
  });
});

describe('parseHostUpload', () => {
  const ok = (data: object) => ({ ok: true, data });

  it.each([
    [
      'daemon-legacy.lic',
      {
        serverName: 'hostA',
        serverId: '0800200005ac',
        serverIdType: 'ETHERNET',
        quorum: 'hostA',
        numServers: 1,
        portNumber: 1700,
      },
    ],
    [
      'triad-sign2.lic',
      {
        serverName: 'lic1,lic2,lic3',
        serverId: '11223344aabb,11223355aacc,bbaadd112233',
        serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
        quorum: 'lic1 lic2 lic3',
        numServers: 3,
        portNumber: 27000,
      },
    ],
    [
      'disk-serial-crlf.lic',
      {
        serverName: 'srv',
        serverId: '3e2e17fd',
        serverIdType: 'DISK_SERIAL_NUM',
        quorum: 'srv',
        numServers: 1,
        portNumber: 1055,
      },
    ],
    [
      'flexid-single.lic',
      {
        serverName: 'this_host',
        serverId: '9-6b3366b2',
        serverIdType: 'FLEXID',
        quorum: 'this_host',
        numServers: 1,
      },
    ],
    [
      'lmhostid-two-ids.txt',
      { serverName: '', serverId: 'a41fd5028d74', serverIdType: 'ETHERNET', quorum: '', numServers: 1 },
    ],
    [
      'lmhostid-single.txt',
      { serverName: '', serverId: '6003089af239', serverIdType: 'ETHERNET', quorum: '', numServers: 1 },
    ],
    [
      'lmhostid-hostname.txt',
      {
        serverName: 'storage',
        serverId: '3e2e17fd',
        serverIdType: 'DISK_SERIAL_NUM',
        quorum: 'storage',
        numServers: 1,
      },
    ],
    [
      'hosts-triad.txt',
      {
        serverName: 'lic1,lic2,lic3',
        serverId: '0800200005ac,0000124241bc,0050569a1b2c',
        serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
        quorum: 'lic1 lic2 lic3',
        numServers: 3,
      },
    ],
    [
      'hosts-single.txt',
      {
        serverName: 'storage',
        serverId: 'bc098ae4',
        serverIdType: 'DISK_SERIAL_NUM',
        quorum: 'storage',
        numServers: 1,
      },
    ],
  ])('reads %s', (name, data) => {
    expect(parseHostUpload(corpus(name))).toEqual(ok(data));
  });

  it('reads pasted lmhostid ids with one or two layers of quotes and no header', () => {
    expect(parseHostUpload('"FLEXID=9-6B3366B2"')).toEqual(
      ok({ serverName: '', serverId: '9-6b3366b2', serverIdType: 'FLEXID', quorum: '', numServers: 1 }),
    );
    expect(parseHostUpload('""HOSTNAME=x 001122334455""\n')).toMatchObject(
      ok({ serverName: 'x', serverId: '001122334455' }),
    );
  });

  it('reads a host list whose type is left out, from the shape of the id', () => {
    expect(parseHostUpload('lic1 DISK_SERIAL_NUM=3e2e17fd\n')).toMatchObject(
      ok({ serverId: '3e2e17fd', serverIdType: 'DISK_SERIAL_NUM' }),
    );
  });

  it.each([
    ['', 'The file is empty.'],
    [' \n\t\n', 'The file is empty.'],
    [corpus('node-locked.lic'), 'The license file has no SERVER line: upload a file for a license server.'],
    ['SERVER lic1 ID=1234-5678 1055\nVENDOR simlmd\n', 'Line 1: host id "ID=1234-5678" is not supported'],
    ['# header\nSERVER lic1\n', 'Line 2: SERVER needs a host name and a host id'],
    [
      'SERVER a 001122334455\nSERVER b 001122334466\n',
      'The file describes 2 license servers; a license server is one host or a triad of three.',
    ],
    [
      'SERVER a 001122334455\nSERVER b 001122334455\nSERVER c 001122334466\n',
      'Triad servers must have three different server ids: 001122334455 appears twice.',
    ],
    [
      'SERVER a 001122334455\nSERVER b 3e2e17fd\nSERVER c 001122334466\n',
      'Triad servers must all be the same host id type',
    ],
    [corpus('lmhostid-unsupported.txt'), 'Line 2: no usable host id in the lmhostid output'],
    ['lmhostid - Copyright (c) 1989-2024 Flexera.\n', 'No host id found in the lmhostid output'],
    [
      'lic1 0050569a1b2c ETHERNET\nlic2\n',
      'Line 2: expected a host name, its host id and optionally the id type',
    ],
    [
      'lic1 0050569a1b2c ETHERNET\n\nlic2 0050569a1b ETHERNET\n',
      'Line 3: Invalid ETHERNET server id: 0050569a1b.',
    ],
    ['lic1 0050569a1b2c WIFI\n', 'Line 1: unknown host id type "WIFI"'],
    ['lic1 12345\n', 'Line 1: cannot tell the type of host id "12345"'],
  ])('refuses %j naming the line', (source, message) => {
    const result = parseHostUpload(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.err.startsWith(message), result.err).toBe(true);
  });
});

describe('host ids through a license file', () => {
  it('every id host-ids.ts accepts comes back from generate → parse with the same ids and types', () => {
    fc.assert(
      fc.property(licenseServers, (servers) => {
        for (const server of servers) expect(validateHostId(server.type, server.id)).toBeNull();
        const files = generateLicenseFiles(
          {
            servers,
            customerNumber: '00123456',
            issued: '2026-01-08',
            features: [
              {
                product: 'p',
                activationId: 'a',
                featureName: 'solver',
                daemon: 'simlmd',
                count: 1,
                startDate: '2026-01-01',
                endDate: null,
                versionDate: null,
                borrowable: false,
              },
            ],
          },
          fakeSigner,
        );
        const ids = servers.map((server) => normaliseHostId(server.type, server.id));
        const parsed = parseLicenseText(files.text);
        expect(parsed.servers.map((s) => parseFlexlmHostId(s.hostId))).toEqual(
          servers.map((server, index) => ({ type: server.type, id: ids[index] })),
        );
        expect(parsed.servers.map((s) => s.port)).toEqual(servers.map((server) => server.port ?? 1055));
        const upload = parseHostUpload(files.text);
        expect(upload).toEqual({
          ok: true,
          data: {
            serverName: servers.map((server) => server.name || 'this_host').join(','),
            serverId: ids.join(','),
            serverIdType: servers.map((server) => server.type).join(','),
            quorum: servers.map((server) => server.name || 'this_host').join(' '),
            numServers: servers.length,
            // The port is kept for the new host (issue 21): the first SERVER line's.
            portNumber: servers[0].port ?? 1055,
          },
        });
      }),
      { numRuns: 300 },
    );
  });
});
