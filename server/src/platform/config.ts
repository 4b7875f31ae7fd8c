import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = z.string().url();

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
  ACCOUNT_LIST_MAX: z.coerce.number().int().min(1).default(500),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PRODUCT_NAME: z.string().min(1).default('Simulation Suite'),
  PROVIDER_NAME: z.string().min(1).default('Vendor'),
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
  SEED_SESSIONS: z.coerce.number().int().min(0).default(200_000),
  WEB_DIST: z.string().optional(),
  /** 32-byte key (64 hex digits) that encrypts elastic server PINs at rest; generated into DATA_DIR when unset. */
  PIN_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex digits')
    .optional(),
  /** Vendor's elastic licensing terms page (the Rate Table link on /elastic). */
  ELASTIC_TERMS_URL: url.default('https://example.com/elastic-terms'),
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
