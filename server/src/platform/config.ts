import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = z.string().url();

/** One trusted proxy: an address, a CIDR range or one of proxy-addr's names. */
const proxyEntry = z.union([
  z.ipv4(),
  z.ipv6(),
  z.cidrv4(),
  z.cidrv6(),
  z.enum(['loopback', 'linklocal', 'uniquelocal']),
]);

/**
 * Which peers may set X-Forwarded-* (Fastify's trustProxy): off unless configured, because a trusted
 * header decides the client address the sign-in limit counts (decision 017). `false`/unset = off, else
 * a comma list of the proxies' addresses/CIDRs. No hop counts: Fastify treats a count as "trust
 * nothing", since a count cannot tell the real proxy from a client that connects directly.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((v, c): false | string[] => {
    if (v === '' || v === 'false') return false;
    const entries = v.split(',').map((e) => e.trim());
    if (entries.every((e) => proxyEntry.safeParse(e).success)) return entries;
    c.addIssue({
      code: 'custom',
      message:
        "expected false or a comma list of the proxies' addresses/CIDRs (or loopback, linklocal, uniquelocal)",
    });
    return z.NEVER;
  });

/** Every variable the server reads, with its default. Validated once at start. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: url.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url.optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  APP_ENVIRONMENT: z.enum(['dev', 'uat', 'prod']).default('dev'),
  OIDC_ISSUER: url.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ROLES_CLAIM: z.string().min(1).default('roles'),
  OIDC_SCOPES: z.string().default('openid email profile'),
  DEMO_PASSWORD: z.string().min(8).default('demo-password'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(12),
  COOKIE_SECURE: bool.optional(),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Failed sign-ins per e-mail address before it is locked for LOGIN_ACCOUNT_LOCKOUT_MINUTES. */
  LOGIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_ACCOUNT_LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  TRUST_PROXY: trustProxy,
  ACCOUNT_LIST_MAX: z.coerce.number().int().min(1).default(500),
  /** Decision 021: large pages (more than 1000 rows) one user may stream at once on a node, the node's total, and how long a request over either waits before its 429. */
  LARGE_PAGES_PER_USER: z.coerce.number().int().min(1).default(2),
  LARGE_PAGES_PER_NODE: z.coerce.number().int().min(1).default(4),
  LARGE_PAGE_WAIT_MS: z.coerce.number().int().min(0).default(5000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** On shutdown, requests in flight get this long to finish; then every connection left is closed. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PRODUCT_NAME: z.string().min(1).default('Simulation Suite'),
  PROVIDER_NAME: z.string().min(1).default('Vendor'),
  /** The vendor's main license daemon: serves products whose catalogue entry names none (brand: configuration). */
  LICENSE_MAIN_DAEMON: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,30}$/, 'a FlexLM daemon name: 1-30 letters, digits or _')
    .default('simlmd'),
  EDIT_PROFILE_URL: url.default('https://example.com/profile'),
  SUPPORT_REQUEST_URL: url.default('https://example.com/support'),
  DOCUMENTATION_URL: url.default('https://example.com/docs'),
  PRIVACY_URL: url.default('https://example.com/privacy'),
  BUILD_INFO: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'expected smtp://… or smtps://…')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Licensing Portal <no-reply@localhost>'),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  SEED_ON_EMPTY: bool.default(true),
  /** Background jobs (the daily notices) on this node; every node may run them, each run happens once (decision 040) */
  JOBS_ENABLED: bool.default(true),
  JOBS_POLL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
  SEED_SESSIONS: z.coerce.number().int().min(0).default(200_000),
  WEB_DIST: z.string().optional(),
  /** 32-byte key (64 hex digits) that encrypts elastic server PINs at rest; generated into DATA_DIR when unset. */
  PIN_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex digits')
    .optional(),
  /** Vendor's elastic licensing terms page (the Rate Table link on /elastic). */
  ELASTIC_TERMS_URL: url.default('https://example.com/elastic-terms'),
  /** How many days back a license server may report a usage session (decision 020). */
  CLS_BACKFILL_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  publicUrl: string;
  production: boolean;
  builtInIdp: boolean;
  cookieSecure: boolean;
  pgliteDir: string;
}

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const external = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (external.some(Boolean) && !external.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none, for the built-in provider)',
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    ...env,
    publicUrl,
    production: env.APP_ENVIRONMENT === 'prod',
    builtInIdp: !env.OIDC_ISSUER,
    cookieSecure: env.COOKIE_SECURE ?? publicUrl.startsWith('https:'),
    pgliteDir: path.resolve(env.DATA_DIR, 'pglite'),
  };
}
