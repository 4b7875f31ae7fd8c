-- Issue 25 §1, decision 073: usage_sessions partitioned by the UTC month of start_time (declarative range
-- partitioning, PostgreSQL and PGlite alike). The old table's rows are copied into the month partitions in this
-- migration's transaction and the old table dropped; ids and the id sequence are kept. A session is one row in the
-- month it started, so the primary key and the session key carry start_time (a partitioned table's unique keys
-- must hold its partition key). lp_month_partition makes a month's partition, moving that month's rows out of
-- the default partition first; the server calls it ahead of time (db/partitions.ts).
ALTER TABLE "usage_sessions" RENAME TO "usage_sessions_unpartitioned";
--> statement-breakpoint
ALTER TABLE "usage_sessions_unpartitioned" DROP CONSTRAINT "usage_sessions_pkey";
--> statement-breakpoint
DROP INDEX "usage_sessions_customer_start_idx";
--> statement-breakpoint
DROP INDEX "usage_sessions_customer_user_idx";
--> statement-breakpoint
DROP INDEX "usage_sessions_server_session_idx";
--> statement-breakpoint
ALTER TABLE "usage_sessions_unpartitioned" ALTER COLUMN "id" DROP DEFAULT;
--> statement-breakpoint
ALTER SEQUENCE "usage_sessions_id_seq" OWNED BY NONE;
--> statement-breakpoint
CREATE TABLE "usage_sessions" (
	"id" bigint DEFAULT nextval('usage_sessions_id_seq'::regclass) NOT NULL,
	"customer_number" text NOT NULL,
	"entitlement_id" bigint,
	"session_id" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"product" text NOT NULL,
	"product_version" text DEFAULT '' NOT NULL,
	"product_count" integer NOT NULL,
	"hours" double precision NOT NULL,
	"charge" double precision NOT NULL,
	"currency" text NOT NULL,
	"username" text NOT NULL,
	"host" text NOT NULL,
	"project" text DEFAULT '' NOT NULL,
	"session_status" text NOT NULL,
	"referer_ip" text DEFAULT '' NOT NULL,
	"cloud_job_id" text,
	"server_id" text NOT NULL,
	"rate_table_version" text DEFAULT '' NOT NULL,
	"rate" double precision DEFAULT 0 NOT NULL,
	"charged_cents" bigint DEFAULT 0 NOT NULL,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "usage_sessions_pkey" PRIMARY KEY ("id", "start_time")
) PARTITION BY RANGE ("start_time");
--> statement-breakpoint
ALTER SEQUENCE "usage_sessions_id_seq" OWNED BY "usage_sessions"."id";
--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_start_idx" ON "usage_sessions" USING btree ("customer_number","start_time","id") INCLUDE ("username","product");
--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_user_idx" ON "usage_sessions" USING btree ("customer_number","username","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "usage_sessions_server_session_idx" ON "usage_sessions" USING btree ("server_id","session_id","start_time");
--> statement-breakpoint
-- Rows of a month that has no partition yet (the server makes them months ahead; a test or an import may not).
CREATE TABLE "usage_sessions_default" PARTITION OF "usage_sessions" DEFAULT;
--> statement-breakpoint
-- The partition of `parent` for the UTC month starting on `month_start`, named <parent>_pYYYY_MM; made (with the
-- parent's checks, which ATTACH requires, and its indexes and foreign keys, which ATTACH adds) when missing, after
-- moving that month's rows out of <parent>_default. Two nodes may ask at once: the transaction lock on the name
-- makes the second find the first's.
CREATE FUNCTION "lp_month_partition"(parent text, month_start date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := (date_trunc('month', month_start)::timestamp AT TIME ZONE 'UTC');
  hi timestamptz := ((date_trunc('month', month_start) + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  part text := parent || '_p' || to_char(date_trunc('month', month_start), 'YYYY_MM');
  key text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lp_month_partition ' || part));
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN part;
  END IF;
  SELECT a.attname INTO key
    FROM pg_partitioned_table p
    JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
   WHERE p.partrelid = parent::regclass;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
  EXECUTE format(
    'WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', key, key, part) USING lo, hi;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  RETURN part;
END
$$;
--> statement-breakpoint
-- A partition per month the old rows cover (at most ten years back; older rows go to the default partition), and
-- this month to three ahead.
SELECT "lp_month_partition"('usage_sessions', m::date)
  FROM generate_series(
    least(
      date_trunc('month', now() AT TIME ZONE 'UTC'),
      greatest(
        coalesce(
          date_trunc('month', (SELECT min("start_time") FROM "usage_sessions_unpartitioned") AT TIME ZONE 'UTC'),
          date_trunc('month', now() AT TIME ZONE 'UTC')),
        date_trunc('month', now() AT TIME ZONE 'UTC') - interval '120 months')),
    greatest(
      date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
      date_trunc('month', (SELECT max("start_time") FROM "usage_sessions_unpartitioned") AT TIME ZONE 'UTC')),
    interval '1 month') AS m;
--> statement-breakpoint
INSERT INTO "usage_sessions" ("id", "customer_number", "entitlement_id", "session_id", "start_time", "end_time",
    "product", "product_version", "product_count", "hours", "charge", "currency", "username", "host", "project",
    "session_status", "referer_ip", "cloud_job_id", "server_id", "rate_table_version", "rate", "charged_cents",
    "last_seen_at")
  SELECT "id", "customer_number", "entitlement_id", "session_id", "start_time", "end_time", "product",
    "product_version", "product_count", "hours", "charge", "currency", "username", "host", "project",
    "session_status", "referer_ip", "cloud_job_id", "server_id", "rate_table_version", "rate", "charged_cents",
    "last_seen_at"
  FROM "usage_sessions_unpartitioned";
--> statement-breakpoint
DROP TABLE "usage_sessions_unpartitioned";
