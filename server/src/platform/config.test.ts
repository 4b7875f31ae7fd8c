import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(c.builtInIdp).toBe(true);
    expect(c.production).toBe(false);
    expect(c.cookieSecure).toBe(false);
    expect(c.pgliteDir).toMatch(/data\/pglite$/);
  });

  it('names each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrowError(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' });
    } catch (e) {
      expect((e as Error).message).toContain('PORT');
      expect((e as Error).message).toContain('DATABASE_URL');
    }
  });

  it('requires the external IdP settings together', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.com' })).toThrowError(/must be set together/);
    const c = loadConfig({
      OIDC_ISSUER: 'https://idp.example.com',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 's3cret',
      PUBLIC_URL: 'https://portal.example.com/',
    });
    expect(c.builtInIdp).toBe(false);
    expect(c.publicUrl).toBe('https://portal.example.com');
    expect(c.cookieSecure).toBe(true);
  });
});
