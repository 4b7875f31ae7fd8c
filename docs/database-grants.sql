-- Database logins for production on PostgreSQL (decision 044). Two roles:
--   lp_owner  owns the database and its tables and runs the migrations (start one node, or run any
--             `npm run cli` command, with its DATABASE_URL after each upgrade, before the app nodes start);
--   lp_app    the API nodes' DATABASE_URL: reads and writes the data, appends to the audit log, and can
--             neither change nor remove audit entries, nor switch the audit triggers off (only an owner can).
-- Once, as a superuser:
--   CREATE ROLE lp_owner LOGIN PASSWORD '...';
--   CREATE ROLE lp_app LOGIN PASSWORD '...';
--   CREATE DATABASE licensing OWNER lp_owner;
-- Then this script, as lp_owner, after the first migration and again after each upgrade (new tables):
--   psql "postgres://lp_owner@db-host/licensing" -f docs/database-grants.sql
-- Each statement ends its line with a semicolon (a test runs this file as it is).

-- The nodes migrate at start: with nothing left to apply, that only checks drizzle's own schema and table.
DO $$ BEGIN EXECUTE format('GRANT CONNECT, CREATE ON DATABASE %I TO lp_app', current_database()); END $$;
GRANT USAGE, CREATE ON SCHEMA drizzle TO lp_app;
GRANT SELECT ON drizzle.__drizzle_migrations TO lp_app;

GRANT USAGE ON SCHEMA public TO lp_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO lp_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO lp_app;

-- The audit log is append-only for the app: no UPDATE, DELETE or TRUNCATE of entries; chain heads are updated
-- by each append (a trigger lets a head move one entry forward only) but never deleted.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_entries FROM lp_app;
REVOKE DELETE, TRUNCATE ON audit_chain_heads FROM lp_app;
