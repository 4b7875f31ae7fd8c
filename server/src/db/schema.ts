/**
 * The database schema as drizzle is given it (`drizzle(client, { schema })` in database.ts needs every table in one
 * module): the tables are defined by area in schema/<area>.ts; importers take them from here, so a table can move
 * between areas without touching them.
 */
export * from './schema/accounts.ts';
export * from './schema/audit.ts';
export * from './schema/auth.ts';
export * from './schema/elastic.ts';
export * from './schema/emails.ts';
export * from './schema/entitlements.ts';
export * from './schema/jobs.ts';
export * from './schema/license-servers.ts';
export * from './schema/settings.ts';
export * from './schema/web.ts';
