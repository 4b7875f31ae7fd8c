import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * Portal users: created or refreshed from ID-token claims at each sign-in, bound to the provider's (issuer,
 * subject) on the first one (decision 042).
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    name: text('name').notNull().default(''),
    vendorRoles: text('vendor_roles').array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    lastLoginAt: ts('last_login_at'),
    /** 'built-in' for the built-in provider (its issuer URL follows PUBLIC_URL), else the token's `iss` */
    idpIssuer: text('idp_issuer'),
    idpSubject: text('idp_subject'),
    /** A disabled user's sessions and tokens stop working on the next call */
    disabledAt: ts('disabled_at'),
    /** When the provider last stated the vendor roles (sign-in); tokens act on them for a limited time only */
    rolesConfirmedAt: ts('roles_confirmed_at'),
  },
  (t) => [
    uniqueIndex('users_idp_identity').on(t.idpIssuer, t.idpSubject),
    check('users_idp_identity_pair', sql`(${t.idpIssuer} is null) = (${t.idpSubject} is null)`),
  ],
);

/** Server-side sessions named by an opaque cookie; the id is stored as a SHA-256 hash. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idToken: text('id_token'),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    lastSeenAt: ts('last_seen_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Pending sign-ins: PKCE verifier, state and nonce between /login and /callback. */
export const loginStates = pgTable('login_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  returnTo: text('return_to').notNull().default('/'),
  expiresAt: ts('expires_at').notNull(),
});

/**
 * Failed sign-ins of the built-in provider per e-mail (keyed by an HMAC of the address, so typed
 * addresses of unknown accounts are not stored): shared by every API node (decision 017).
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    emailKey: text('email_key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStartedAt: ts('window_started_at').notNull(),
    lockedUntil: ts('locked_until'),
  },
  (t) => [index('sign_in_failures_window_idx').on(t.windowStartedAt)],
);

/**
 * Failed sign-ins per e-mail and client address (decision 017, revised): growing delays for one address, and
 * `succeededAt` marks an address the user has signed in from. `pairKey` is an HMAC of both.
 */
export const signInAddressFailures = pgTable(
  'sign_in_address_failures',
  {
    pairKey: text('pair_key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: ts('last_failure_at'),
    lockedUntil: ts('locked_until'),
    succeededAt: ts('succeeded_at'),
  },
  (t) => [index('sign_in_address_failures_last_failure_idx').on(t.lastFailureAt)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    name: text('name').notNull().default(''),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId)],
);

/** Directory of the built-in OpenID provider (the default IdP); not used with an external IdP. */
export const idpAccounts = pgTable('idp_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
  passwordHash: text('password_hash').notNull(),
});

/** Set-password links of the built-in provider, made by the operator CLI; only the secret's hash is stored. */
export const passwordLinks = pgTable(
  'password_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    idpAccountId: uuid('idp_account_id')
      .notNull()
      .references(() => idpAccounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('password_links_account_idx').on(t.idpAccountId)],
);

/** oidc-provider adapter storage (sessions, grants, codes, ...) and its signing keys. */
export const oidcStore = pgTable(
  'oidc_store',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_store_grant_idx').on(t.grantId),
    index('oidc_store_uid_idx').on(t.uid),
  ],
);
