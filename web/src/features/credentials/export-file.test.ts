import { describe, expect, it } from 'vitest';
import { credentialsFile } from './export-file.ts';

describe('credentialsFile', () => {
  it('holds clsid, Alias and PIN and is named with the server id', () => {
    const file = credentialsFile('0A1B2C3D4E5F', 'acme-cls', '012345');
    expect(file.name).toBe('0A1B2C3D4E5F.json');
    expect(JSON.parse(file.text)).toEqual({ clsid: '0A1B2C3D4E5F', Alias: 'acme-cls', PIN: '012345' });
    // The PIN stays text: leading zeros survive.
    expect(file.text).toContain('"PIN": "012345"');
  });

  it('keeps the real id in the file but makes the name safe for any file system', () => {
    const file = credentialsFile('host/1:2', 'a', '123456');
    expect(file.name).toBe('host_1_2.json');
    expect(JSON.parse(file.text).clsid).toBe('host/1:2');
  });
});
