import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = z.string().url();

/** PUBLIC_URL: an http(s) origin, optionally with a path; `localhost:8080` (no scheme) parses as a URL, so say so. */
const publicUrlSchema = z.string().superRefine((value, c) => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    c.addIssue({
      code: 'custom',
      message: `expected the URL users reach, starting with https:// or http:// (for example https://licensing.example.com), got "${value}"`,
    });
  } else if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    c.addIssue({ code: 'custom', message: 'must not carry a query, a fragment or credentials' });
  }
});

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
  PUBLIC_URL: publicUrlSchema.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url.optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Issue 25 §2: a streaming replica of DATABASE_URL. Usage grids, counts and distinct values read from it while it
   * is within REPLICA_MAX_LAG_SECONDS and has replayed the user's own last write; everything else reads the primary.
   */
  DATABASE_REPLICA_URL: url.optional(),
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Decision 043: PostgreSQL deadlines in ms (0 = none; PGlite has none): waiting for a pooled connection, a
   * statement (the client cuts a connection that stays silent 1 s longer, so a hung database is a 503 within
   * seconds), a lock wait, and a transaction left idle (frees the locks of a node that vanished).
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(5000),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(4000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  APP_ENVIRONMENT: z.enum(['dev', 'uat', 'prod']).default('dev'),
  OIDC_ISSUER: url.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ROLES_CLAIM: z.string().min(1).default('roles'),
  OIDC_SCOPES: z.string().default('openid email profile'),
  /**
   * Decision 042: a token without `email_verified` signs in only when the operator says the provider verifies every
   * address it issues (some do not send the claim); `email_verified: false` never signs in.
   */
  OIDC_ACCEPT_MISSING_EMAIL_VERIFIED: bool.default(false),
  /** Personal API tokens: lifetime when none is asked for, and the longest one may ask for (days). */
  API_TOKEN_DEFAULT_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  API_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** How long a token may act on vendor-staff roles the provider last confirmed at a sign-in (hours). */
  TOKEN_ROLES_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(8760).default(72),
  /** prod: allow an http:// PUBLIC_URL or OIDC_ISSUER (only behind a proxy on a private network that adds TLS) */
  ALLOW_INSECURE_URLS: bool.default(false),
  /** prod: seed the demo world and its users anyway (loudly logged; needs a DEMO_PASSWORD of your own) */
  DEMO_DATA_IN_PROD: bool.default(false),
  DEMO_PASSWORD: z.string().min(8).default('demo-password'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(12),
  COOKIE_SECURE: bool.optional(),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /**
   * Decision 017 (revised): failed sign-ins for one e-mail from all addresses within LOGIN_ACCOUNT_LOCKOUT_MINUTES;
   * past it, addresses the user never signed in from are refused for that long, known ones only slowed.
   */
  LOGIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(100),
  LOGIN_ACCOUNT_LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Failed sign-ins for one e-mail from one address before each further one locks that pair, 1 minute doubling. */
  LOGIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_ADDRESS_MAX_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
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
  /** E-mails users ask for (statements, license files) per user and per account in the last hour (decision 045). */
  MAIL_USER_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(30),
  MAIL_ACCOUNT_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(100),
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
  /**
   * Decision 073: the months of raw usage sessions kept before the current one (25: this month a year ago and the
   * year before); older months are summed into daily rollups and their partitions dropped.
   */
  USAGE_RETENTION_MONTHS: z.coerce.number().int().min(13).max(1200).default(25),
  /**
   * Decision 044: the Ed25519 key (its 32-byte seed, 64 hex digits) that signs audit checkpoints; when unset,
   * read from DATA_DIR/audit-checkpoint.key (generated there outside prod). Never stored in the database.
   */
  AUDIT_CHECKPOINT_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex digits')
    .optional(),
  /** Where signed audit checkpoints are written (default DATA_DIR/audit-checkpoints); the database login must not be able to write it. */
  AUDIT_CHECKPOINT_DIR: z.string().min(1).optional(),
  /** A copy of each checkpoint goes to this address through the outbox. */
  AUDIT_CHECKPOINT_EMAIL: z.string().email().optional(),
  AUDIT_CHECKPOINT_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /**
   * Decision 055: `/metrics` (Prometheus) is served only when asked for: on the app's port to requests with
   * `Authorization: Bearer <METRICS_TOKEN>`, or only on the separate address METRICS_LISTEN (host:port; with the
   * token too when both are set). Neither set: not served (404).
   */
  METRICS_TOKEN: z.string().trim().min(16, 'at least 16 characters (a random secret)').optional(),
  METRICS_LISTEN: z
    .string()
    .regex(
      /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/,
      'expected host:port, for example 127.0.0.1:9464 or [::1]:9464',
    )
    .refine((v) => Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535, 'port above 65535')
    .optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  publicUrl: string;
  production: boolean;
  /** Seed the demo world into an empty database: outside prod (SEED_ON_EMPTY), in prod only when asked */
  seedDemo: boolean;
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
  if (env.DATABASE_REPLICA_URL && !env.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_REPLICA_URL: a replica of DATABASE_URL, which must be set too (PGlite has no replicas)',
    );
  // A month still open to license servers' reports is never dropped.
  if (env.CLS_BACKFILL_DAYS > 28 * env.USAGE_RETENTION_MONTHS)
    throw new ConfigError(
      `Invalid configuration:\n  USAGE_RETENTION_MONTHS (${env.USAGE_RETENTION_MONTHS}) must keep the sessions CLS_BACKFILL_DAYS (${env.CLS_BACKFILL_DAYS}) lets a license server report: at least ${Math.ceil(env.CLS_BACKFILL_DAYS / 28)} months`,
    );
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const production = env.APP_ENVIRONMENT === 'prod';
  if (production) {
    const unsafe = productionProblems(env, source);
    if (unsafe.length)
      throw new ConfigError(
        `Refusing to start with APP_ENVIRONMENT=prod:\n${unsafe.map((l) => `  ${l}`).join('\n')}`,
      );
  }
  return {
    ...env,
    publicUrl,
    production,
    seedDemo: env.SEED_ON_EMPTY && (!production || env.DEMO_DATA_IN_PROD),
    builtInIdp: !env.OIDC_ISSUER,
    cookieSecure: env.COOKIE_SECURE ?? publicUrl.startsWith('https:'),
    pgliteDir: path.resolve(env.DATA_DIR, 'pglite'),
  };
}

const defaultDemoPassword = envSchema.shape.DEMO_PASSWORD.parse(undefined);

/**
 * Settings that would make a production node unsafe (issue 20 §2, decision 046), each naming the variable and why.
 * Opt-outs exist where a real deployment may need one, and are named in the message.
 */
function productionProblems(env: Env, source: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const insecure = (value: string | undefined) => value !== undefined && new URL(value).protocol !== 'https:';
  if (!env.PUBLIC_URL)
    problems.push(
      'PUBLIC_URL: required (the https:// address users reach; sign-in redirects and cookies use it)',
    );
  else if (insecure(env.PUBLIC_URL) && !env.ALLOW_INSECURE_URLS)
    problems.push(
      'PUBLIC_URL: must start with https:// (sessions and sign-in would travel in clear); set ALLOW_INSECURE_URLS=true only behind a TLS-terminating proxy on a private network',
    );
  if (insecure(env.OIDC_ISSUER) && !env.ALLOW_INSECURE_URLS)
    problems.push('OIDC_ISSUER: must start with https:// (or set ALLOW_INSECURE_URLS=true, see PUBLIC_URL)');
  if (env.COOKIE_SECURE === false && !env.ALLOW_INSECURE_URLS)
    problems.push('COOKIE_SECURE: false would send the session cookie over plain http');
  if (env.DATABASE_URL && !env.PIN_ENCRYPTION_KEY)
    problems.push(
      'PIN_ENCRYPTION_KEY: required with DATABASE_URL (64 hex digits, the same on every node; without it each node would make its own key file and could not open what another sealed)',
    );
  if (env.DATABASE_URL && !env.AUDIT_CHECKPOINT_KEY)
    problems.push(
      'AUDIT_CHECKPOINT_KEY: required with DATABASE_URL (64 hex digits, the same on every node, kept out of the database: it signs the checkpoints that prove the audit log was not rewritten; decision 044)',
    );
  if (
    env.DEMO_DATA_IN_PROD &&
    (source.DEMO_PASSWORD === undefined || env.DEMO_PASSWORD === defaultDemoPassword)
  )
    problems.push(
      'DEMO_PASSWORD: DEMO_DATA_IN_PROD=true seeds demo users, so set a password of your own (the default is published)',
    );
  return problems;
}
