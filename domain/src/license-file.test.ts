import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fakeSigner, isoDay } from './license-corpus/arbitraries.ts';
import {
  canonicalFeatureLine,
  flexlmDate,
  generateLicenseFiles,
  type LicenseFeature,
  type LicenseFileInput,
  licenseFileName,
  mergeLicenseFiles,
  readSignValue,
  sharedLicenseFileName,
  sharedLicenseFiles,
  signValue,
} from './license-file.ts';
import { parseFlexlmDate, parseLicenseText } from './license-file-parse.ts';

const feature = (overrides: Partial<LicenseFeature> = {}): LicenseFeature => ({
  product: 'Solver Pro',
  activationId: 'ACT-0001',
  featureName: 'solver',
  daemon: 'simlmd',
  count: 5,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  versionDate: null,
  borrowable: true,
  ...overrides,
});

const input = (overrides: Partial<LicenseFileInput> = {}): LicenseFileInput => ({
  servers: [{ name: 'licsrv01', type: 'ETHERNET', id: '00:50:56:9A:1B:2C' }],
  customerNumber: '00123456',
  issued: '2026-01-08',
  features: [feature()],
  ...overrides,
});

/** The fixed signature fakeSigner gives a line, as the file writes it. */
const fakeSign = (text: string) => {
  const { keyId, signature } = fakeSigner(text);
  return signValue(keyId, signature).split(' ');
};

describe('generateLicenseFiles', () => {
  it('writes SERVER, VENDOR, USE_SERVER, then a comment and a wrapped, signed INCREMENT per fulfillment', () => {
    const files = generateLicenseFiles(input(), fakeSigner);
    const canonical = canonicalFeatureLine(['0050569a1b2c'], parseLicenseText(files.text).features[0].tokens);
    const groups = fakeSign(canonical);
    expect(files.text).toBe(
      [
        'SERVER licsrv01 0050569a1b2c 1055',
        'VENDOR simlmd',
        'USE_SERVER',
        '# Solver Pro, ACT-0001, 00123456',
        'INCREMENT solver simlmd 2026.1231 31-dec-2026 5 \\',
        '\tVENDOR_STRING=customer:00123456 ISSUED=08-jan-2026 START=01-jan-2026 BORROW \\',
        `\tSIGN="${groups.slice(0, 12).join(' ')} \\`,
        `\t${groups.slice(12, 24).join(' ')} \\`,
        `\t${groups.slice(24).join(' ')}"`,
        '',
      ].join('\n'),
    );
    expect(files.licenseText).toEqual({ simlmd: files.text });
    expect(files.fileName).toBe('license_00123456_0050569a1b2c.lic');
    expect(files.text.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('writes a triad as three SERVER lines in the order entered, with their ports and placeholder names', () => {
    const files = generateLicenseFiles(
      input({
        servers: [
          { name: 'lic3', type: 'DISK_SERIAL_NUM', id: 'BC09-8AE4', port: 27000 },
          { name: '', type: 'DISK_SERIAL_NUM', id: '3e2e17fd', port: 27000 },
          { name: 'lic1', type: 'DISK_SERIAL_NUM', id: 'DISK_SERIAL_NUM=00000001' },
        ],
      }),
      fakeSigner,
    );
    expect(files.text.split('\n').slice(0, 3)).toEqual([
      'SERVER lic3 DISK_SERIAL_NUM=bc098ae4 27000',
      'SERVER this_host DISK_SERIAL_NUM=3e2e17fd 27000',
      'SERVER lic1 DISK_SERIAL_NUM=00000001 1055',
    ]);
    expect(files.fileName).toBe('license_00123456_bc098ae4,3e2e17fd,00000001.lic');
  });

  it('keys the files by daemon; the whole text has every daemon once', () => {
    const files = generateLicenseFiles(
      input({
        features: [
          feature(),
          feature({ featureName: 'mesher', daemon: 'meshlmd', activationId: 'ACT-2' }),
          feature({ featureName: 'post', activationId: 'ACT-3' }),
        ],
        daemonPaths: { simlmd: '/opt/sim/simlmd', meshlmd: 'C:\\Program Files\\mesh\\meshlmd.exe' },
      }),
      fakeSigner,
    );
    expect(Object.keys(files.licenseText)).toEqual(['simlmd', 'meshlmd']);
    const sim = parseLicenseText(files.licenseText.simlmd);
    expect(sim.vendors.map((v) => v.text)).toEqual(['VENDOR simlmd /opt/sim/simlmd']);
    expect(sim.features.map((f) => f.name)).toEqual(['solver', 'post']);
    const mesh = parseLicenseText(files.licenseText.meshlmd);
    expect(mesh.vendors.map((v) => v.text)).toEqual([
      'VENDOR meshlmd "C:\\Program Files\\mesh\\meshlmd.exe"',
    ]);
    const all = parseLicenseText(files.text);
    expect(all.vendors.map((v) => v.name)).toEqual(['simlmd', 'meshlmd']);
    expect(all.features.map((f) => f.name)).toEqual(['solver', 'post', 'mesher']);
    expect(all.problems).toEqual([]);
  });

  it('takes the version from the maintenance end, else the end date, else the start; permanent without end', () => {
    const files = generateLicenseFiles(
      input({
        features: [
          feature({ endDate: null, versionDate: '2027-03-04' }),
          feature({ endDate: '2026-06-30', versionDate: null, borrowable: false }),
          feature({ startDate: '2025-02-03', endDate: null, versionDate: null }),
        ],
      }),
      fakeSigner,
    );
    const lines = parseLicenseText(files.text).features;
    expect(lines.map((line) => line.terms)).toEqual([
      { version: '2027.0304', expires: 'permanent', count: 5 },
      { version: '2026.0630', expires: '2026-06-30', count: 5 },
      { version: '2025.0203', expires: 'permanent', count: 5 },
    ]);
    const flags = lines.map((line) => line.tokens.filter((t) => t.key === null).map((t) => t.value));
    expect(flags.map((words) => words.includes('BORROW'))).toEqual([true, false, true]);
    // One ISSUED date for the whole generation; START per line.
    const keyed = (key: string) => lines.map((line) => line.tokens.find((t) => t.key === key)?.value);
    expect(keyed('ISSUED')).toEqual(['08-jan-2026', '08-jan-2026', '08-jan-2026']);
    expect(keyed('START')).toEqual(['01-jan-2026', '01-jan-2026', '03-feb-2025']);
    expect(keyed('VENDOR_STRING')).toEqual(Array(3).fill('customer:00123456'));
  });

  it('leaves out returned fulfillments (count 0)', () => {
    const files = generateLicenseFiles(
      input({ features: [feature({ count: 0 }), feature({ featureName: 'mesher', daemon: 'meshlmd' })] }),
      fakeSigner,
    );
    expect(Object.keys(files.licenseText)).toEqual(['meshlmd']);
    expect(parseLicenseText(files.text).features.map((f) => f.name)).toEqual(['mesher']);
  });

  it('keeps each comment on one line', () => {
    const files = generateLicenseFiles(
      input({ features: [feature({ product: 'Solver\r\nPro \\', activationId: 'A\n1' })] }),
      fakeSigner,
    );
    expect(files.text).toContain('\n# Solver Pro \\, A 1, 00123456\n');
    expect(parseLicenseText(files.text).features).toHaveLength(1);
  });

  it.each<[string, Partial<LicenseFileInput>, RegExp]>([
    [
      'two servers',
      {
        servers: [
          { name: 'a', type: 'ETHERNET', id: '0050569a1b2c' },
          { name: 'b', type: 'ETHERNET', id: '0050569a1b2d' },
        ],
      },
      /one host or a triad/,
    ],
    [
      'a triad of mixed types',
      {
        servers: [
          { name: 'a', type: 'ETHERNET', id: '0050569a1b2c' },
          { name: 'b', type: 'DISK_SERIAL_NUM', id: '3e2e17fd' },
          { name: 'c', type: 'ETHERNET', id: '0050569a1b2d' },
        ],
      },
      /same host id type/,
    ],
    [
      'a triad with a repeated id',
      {
        servers: [
          { name: 'a', type: 'ETHERNET', id: '0050569a1b2c' },
          { name: 'b', type: 'ETHERNET', id: '00-50-56-9A-1B-2C' },
          { name: 'c', type: 'ETHERNET', id: '0050569a1b2d' },
        ],
      },
      /three different server ids/,
    ],
    ['an invalid id', { servers: [{ name: 'a', type: 'FLEXID', id: '6b3366b2' }] }, /Invalid FLEXID/],
    [
      'a host name with a space',
      { servers: [{ name: 'lic 1', type: 'ETHERNET', id: '0050569a1b2c' }] },
      /Host name "lic 1"/,
    ],
    [
      'a port out of range',
      { servers: [{ name: 'a', type: 'ETHERNET', id: '0050569a1b2c', port: 70000 }] },
      /not a TCP port/,
    ],
    ['a customer number with a space', { customerNumber: '001 23' }, /VENDOR_STRING/],
    ['an issued date that is no day', { issued: '2026-02-30' }, /Issued date/],
    ['a feature name with a space', { features: [feature({ featureName: 'so lver' })] }, /Feature name/],
    ['a daemon name with a quote', { features: [feature({ daemon: 'sim"lmd' })] }, /Vendor daemon/],
    ['a negative count', { features: [feature({ count: -1 })] }, /whole number/],
    ['a fractional count', { features: [feature({ count: 1.5 })] }, /whole number/],
    ['an end date in another format', { features: [feature({ endDate: '31/12/2026' })] }, /^Date/],
    [
      'a maintenance date that is no day',
      { features: [feature({ versionDate: '2026-13-01' })] },
      /Version date/,
    ],
    ['a daemon path with a quote', { daemonPaths: { simlmd: '/opt/"x"' } }, /Daemon path/],
    ['a daemon path with a line break', { daemonPaths: { simlmd: '/opt/x\nUSE_SERVER' } }, /Daemon path/],
  ])('refuses %s', (_, overrides, message) => {
    expect(() => generateLicenseFiles(input(overrides), fakeSigner)).toThrow(message);
  });

  it('refuses a signer that does not give a key id and an Ed25519-sized signature', () => {
    expect(() => generateLicenseFiles(input(), () => ({ keyId: '01', signature: 'ab' }))).toThrow(/signer/);
  });
});

describe('SIGN values', () => {
  it('write the key id and the signature as 34 groups of four hex digits and read back', () => {
    const keyId = '0123abcd';
    const signature = 'f0'.repeat(64);
    const value = signValue(keyId, signature);
    expect(value.split(' ')).toHaveLength(34);
    expect(value.startsWith('0123 abcd f0f0')).toBe(true);
    expect(readSignValue(value.replace(/ /g, ' \t\n '))).toEqual({ keyId, signature });
    expect(readSignValue('0011 2233 4455 6677')).toBeNull();
  });
});

describe('file names', () => {
  it('follow spec 002 §9, with characters a file name cannot hold replaced', () => {
    expect(licenseFileName('00123456', '0050569a1b2c')).toBe('license_00123456_0050569a1b2c.lic');
    expect(licenseFileName('001/23', 'a,b,c')).toBe('license_001_23_a,b,c.lic');
    expect(sharedLicenseFileName('simlmd', '9-6b3366b2')).toBe('simlmd_license_9-6b3366b2_shared.lic');
  });
});

describe('FlexLM dates', () => {
  it('write the canonical lower-case form and read back any case and one-digit days', () => {
    expect(flexlmDate('2023-01-08')).toBe('08-jan-2023');
    expect(parseFlexlmDate('4-NOV-2015')).toBe('2015-11-04');
    expect(parseFlexlmDate('1-jan-0')).toBe('permanent');
    expect(parseFlexlmDate('Permanent')).toBe('permanent');
    expect(parseFlexlmDate('31-feb-2026')).toBeNull();
    expect(parseFlexlmDate('1-jan-26')).toBeNull();
    fc.assert(fc.property(isoDay, (day) => parseFlexlmDate(flexlmDate(day)) === day));
  });
});

describe('merging customers files for one host', () => {
  const triad = [
    { name: 'lic1', type: 'ETHERNET' as const, id: '11223344aabb' },
    { name: 'lic2', type: 'ETHERNET' as const, id: '11223355aacc' },
    { name: 'lic3', type: 'ETHERNET' as const, id: 'bbaadd112233' },
  ];
  const first = generateLicenseFiles(
    input({
      servers: triad,
      features: [feature(), feature({ featureName: 'mesher', daemon: 'meshlmd', activationId: 'A-2' })],
    }),
    fakeSigner,
  );
  const second = generateLicenseFiles(
    input({ servers: triad, customerNumber: '00999999', features: [feature({ activationId: 'B-1' })] }),
    fakeSigner,
  );

  it('keeps one set of SERVER lines, each VENDOR line once and every comment and feature line as written', () => {
    const merged = mergeLicenseFiles([first, second]);
    const parsed = parseLicenseText(merged);
    expect(parsed.servers.map((s) => s.text)).toEqual([
      'SERVER lic1 11223344aabb 1055',
      'SERVER lic2 11223355aacc 1055',
      'SERVER lic3 bbaadd112233 1055',
    ]);
    expect(parsed.vendors.map((v) => v.name)).toEqual(['simlmd', 'meshlmd']);
    expect(parsed.lines.filter((line) => line.type === 'use-server')).toHaveLength(1);
    expect(parsed.features.map((f) => f.tokens.find((t) => t.key === 'VENDOR_STRING')?.value)).toEqual([
      'customer:00123456',
      'customer:00123456',
      'customer:00999999',
    ]);
    const featureTexts = (text: string) => parseLicenseText(text).features.map((f) => f.text);
    expect(parsed.features.map((f) => f.text)).toEqual([
      ...featureTexts(first.text),
      ...featureTexts(second.text),
    ]);
    expect(merged).toContain('# Solver Pro, B-1, 00999999\n');
    expect(mergeLicenseFiles([])).toBe('');
  });

  it('refuses files for different servers, a single server and a triad alike', () => {
    const single = generateLicenseFiles(input({ servers: [triad[0]] }), fakeSigner);
    expect(() => mergeLicenseFiles([first, single])).toThrow(/different license servers/);
  });

  it('makes one shared file per daemon, prefixed by its name', () => {
    const shared = sharedLicenseFiles([first, second], '11223344aabb,11223355aacc,bbaadd112233');
    expect(shared.map((file) => file.fileName)).toEqual([
      'simlmd_license_11223344aabb,11223355aacc,bbaadd112233_shared.lic',
      'meshlmd_license_11223344aabb,11223355aacc,bbaadd112233_shared.lic',
    ]);
    expect(parseLicenseText(shared[0].text).features.map((f) => f.name)).toEqual(['solver', 'solver']);
    expect(parseLicenseText(shared[0].text).vendors.map((v) => v.name)).toEqual(['simlmd']);
    expect(parseLicenseText(shared[1].text).features.map((f) => f.name)).toEqual(['mesher']);
  });
});
