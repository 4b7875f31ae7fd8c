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

  it('trusts no proxy unless TRUST_PROXY says which', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.4',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', 'yes', '1', '2', '10.0.0.0/33', 'proxy.example', '10.0.0.1,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrowError(/TRUST_PROXY/);
    }
  });

  it('limits failed sign-ins per e-mail by default', () => {
    const c = loadConfig({});
    expect([c.LOGIN_ACCOUNT_MAX_FAILURES, c.LOGIN_ACCOUNT_LOCKOUT_MINUTES]).toEqual([10, 15]);
    expect(loadConfig({ LOGIN_ACCOUNT_MAX_FAILURES: '3' }).LOGIN_ACCOUNT_MAX_FAILURES).toBe(3);
    expect(() => loadConfig({ LOGIN_ACCOUNT_MAX_FAILURES: '0' })).toThrowError(/LOGIN_ACCOUNT_MAX_FAILURES/);
    expect(() => loadConfig({ LOGIN_ACCOUNT_LOCKOUT_MINUTES: 'soon' })).toThrowError(
      /LOGIN_ACCOUNT_LOCKOUT_MINUTES/,
    );
  });
});
