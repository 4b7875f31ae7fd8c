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

  it('serves no metrics unless asked, and checks the metrics settings (decision 055)', () => {
    const none = loadConfig({ APP_ENVIRONMENT: 'prod', PUBLIC_URL: 'https://lp.example.com' });
    expect([none.METRICS_TOKEN, none.METRICS_LISTEN]).toEqual([undefined, undefined]);
    const set = loadConfig({ METRICS_TOKEN: 'a-long-random-token', METRICS_LISTEN: '[::1]:9464' });
    expect([set.METRICS_TOKEN, set.METRICS_LISTEN]).toEqual(['a-long-random-token', '[::1]:9464']);
    expect(loadConfig({ METRICS_LISTEN: '10.0.0.11:9464' }).METRICS_LISTEN).toBe('10.0.0.11:9464');
    for (const [env, message] of [
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: at least 16 characters'],
      [{ METRICS_LISTEN: '9464' }, 'METRICS_LISTEN: expected host:port'],
      [{ METRICS_LISTEN: 'localhost:99999' }, 'METRICS_LISTEN: port above 65535'],
    ] as const)
      expect(() => loadConfig(env)).toThrowError(message);
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

  it('keeps 25 months of raw usage by default, never fewer than a license server may still report (decision 073)', () => {
    expect(loadConfig({}).USAGE_RETENTION_MONTHS).toBe(25);
    expect(loadConfig({ USAGE_RETENTION_MONTHS: '15' }).USAGE_RETENTION_MONTHS).toBe(15);
    expect(() => loadConfig({ USAGE_RETENTION_MONTHS: '12' })).toThrowError(/USAGE_RETENTION_MONTHS/);
    expect(() => loadConfig({ USAGE_RETENTION_MONTHS: '13' })).toThrowError(
      'USAGE_RETENTION_MONTHS (13) must keep the sessions CLS_BACKFILL_DAYS (400) lets a license server report: at least 15 months',
    );
    expect(
      loadConfig({ USAGE_RETENTION_MONTHS: '13', CLS_BACKFILL_DAYS: '300' }).USAGE_RETENTION_MONTHS,
    ).toBe(13);
  });

  it('takes a read replica only beside a PostgreSQL primary, and bounds its lag (decision 075)', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica.example/lp' })).toThrowError(
      'DATABASE_REPLICA_URL: a replica of DATABASE_URL, which must be set too (PGlite has no replicas)',
    );
    expect(loadConfig({}).REPLICA_MAX_LAG_SECONDS).toBe(30);
    expect(() => loadConfig({ REPLICA_MAX_LAG_SECONDS: '0' })).toThrowError(/REPLICA_MAX_LAG_SECONDS/);
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

  it('limits failed sign-ins per e-mail and address, and per e-mail, by default (decision 017)', () => {
    const c = loadConfig({});
    expect([
      c.LOGIN_ADDRESS_MAX_FAILURES,
      c.LOGIN_ADDRESS_MAX_LOCK_MINUTES,
      c.LOGIN_ACCOUNT_MAX_FAILURES,
      c.LOGIN_ACCOUNT_LOCKOUT_MINUTES,
    ]).toEqual([5, 60, 100, 15]);
    expect(loadConfig({ LOGIN_ACCOUNT_MAX_FAILURES: '3' }).LOGIN_ACCOUNT_MAX_FAILURES).toBe(3);
    expect(() => loadConfig({ LOGIN_ACCOUNT_MAX_FAILURES: '0' })).toThrowError(/LOGIN_ACCOUNT_MAX_FAILURES/);
    expect(() => loadConfig({ LOGIN_ACCOUNT_LOCKOUT_MINUTES: 'soon' })).toThrowError(
      /LOGIN_ACCOUNT_LOCKOUT_MINUTES/,
    );
  });

  it('refuses a PUBLIC_URL without a scheme, with a message naming it (issue 20 §2)', () => {
    for (const bad of [
      'localhost:8080',
      'portal.example.com',
      'ftp://portal.example.com',
      'https://x.example/?a=1',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrowError(ConfigError);
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrowError(/PUBLIC_URL: /);
    }
    expect(() => loadConfig({ PUBLIC_URL: 'localhost:8080' })).toThrowError(
      /starting with https:\/\/ or http:\/\//,
    );
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080/' }).publicUrl).toBe('http://localhost:8080');
  });

  describe('APP_ENVIRONMENT=prod (issue 20 §2)', () => {
    const prod = { APP_ENVIRONMENT: 'prod', PUBLIC_URL: 'https://licensing.example.com' };
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return null;
    };

    it('starts with an https PUBLIC_URL and seeds nothing', () => {
      const c = loadConfig(prod);
      expect(c.production).toBe(true);
      expect(c.seedDemo).toBe(false);
      expect(loadConfig({}).seedDemo).toBe(true);
      expect(loadConfig({ SEED_ON_EMPTY: 'false' }).seedDemo).toBe(false);
    });

    it('refuses unsafe settings, naming the setting and why', () => {
      expect(refusal({ APP_ENVIRONMENT: 'prod' })).toMatch(/PUBLIC_URL: required/);
      expect(refusal({ ...prod, PUBLIC_URL: 'http://licensing.example.com' })).toMatch(
        /PUBLIC_URL: must start with https:\/\/.*ALLOW_INSECURE_URLS/,
      );
      expect(
        refusal({ ...prod, PUBLIC_URL: 'http://localhost:8080', ALLOW_INSECURE_URLS: 'true' }),
      ).toBeNull();
      expect(
        refusal({
          ...prod,
          OIDC_ISSUER: 'http://idp.example.com',
          OIDC_CLIENT_ID: 'portal',
          OIDC_CLIENT_SECRET: 'secret',
        }),
      ).toMatch(/OIDC_ISSUER: must start with https/);
      expect(refusal({ ...prod, COOKIE_SECURE: 'false' })).toMatch(/COOKIE_SECURE/);
      expect(refusal({ ...prod, DATABASE_URL: 'postgres://db.example.com/portal' })).toMatch(
        /PIN_ENCRYPTION_KEY: required with DATABASE_URL/,
      );
      expect(
        refusal({
          ...prod,
          DATABASE_URL: 'postgres://db.example.com/portal',
          PIN_ENCRYPTION_KEY: 'ab'.repeat(32),
        }),
      ).toMatch(/AUDIT_CHECKPOINT_KEY: required with DATABASE_URL/);
      expect(
        refusal({
          ...prod,
          DATABASE_URL: 'postgres://db.example.com/portal',
          PIN_ENCRYPTION_KEY: 'ab'.repeat(32),
          AUDIT_CHECKPOINT_KEY: 'cd'.repeat(32),
        }),
      ).toBeNull();
    });

    it('seeds demo data only on an explicit opt-in that refuses the published password', () => {
      expect(refusal({ ...prod, DEMO_DATA_IN_PROD: 'true' })).toMatch(/DEMO_PASSWORD: /);
      expect(refusal({ ...prod, DEMO_DATA_IN_PROD: 'true', DEMO_PASSWORD: 'demo-password' })).toMatch(
        /DEMO_PASSWORD: /,
      );
      const c = loadConfig({ ...prod, DEMO_DATA_IN_PROD: 'true', DEMO_PASSWORD: 'a-password-of-ours' });
      expect(c.seedDemo).toBe(true);
    });
  });
});
