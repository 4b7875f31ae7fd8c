-- Issue 25 §1, decision 073: web_leases partitioned by the UTC month of started_at, as usage_sessions in 0018. A
-- lease is one row in the month it started; the primary key and the lease handle's key carry started_at (the
-- product API's lease_id is a random UUID, looked up in each month's index).
ALTER TABLE "web_leases" RENAME TO "web_leases_unpartitioned";
--> statement-breakpoint
ALTER TABLE "web_leases_unpartitioned" DROP CONSTRAINT "web_leases_pkey";
--> statement-breakpoint
ALTER TABLE "web_leases_unpartitioned" DROP CONSTRAINT "web_leases_lease_id_unique";
--> statement-breakpoint
DROP INDEX "web_leases_account_ended_idx";
--> statement-breakpoint
DROP INDEX "web_leases_account_started_idx";
--> statement-breakpoint
DROP INDEX "web_leases_denied_idx";
--> statement-breakpoint
DROP INDEX "web_leases_open_idx";
--> statement-breakpoint
DROP INDEX "web_leases_seat_use_idx";
--> statement-breakpoint
DROP INDEX "web_leases_user_open_idx";
--> statement-breakpoint
-- The columns, defaults, identity and checks as they were; the keys, foreign keys and indexes follow.
CREATE TABLE "web_leases" (LIKE "web_leases_unpartitioned" INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)
  PARTITION BY RANGE ("started_at");
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_pkey" PRIMARY KEY ("id", "started_at");
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_lease_id_unique" UNIQUE ("lease_id", "started_at");
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_customer_number_fkey" FOREIGN KEY ("customer_number") REFERENCES "accounts"("customer_number") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "web_users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "web_groups"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "web_leases" ADD CONSTRAINT "web_leases_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "web_credentials"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "web_leases_account_ended_idx" ON "web_leases" USING btree ("customer_number","ended_at");
--> statement-breakpoint
CREATE INDEX "web_leases_account_started_idx" ON "web_leases" USING btree ("customer_number","started_at");
--> statement-breakpoint
CREATE INDEX "web_leases_denied_idx" ON "web_leases" USING btree ("customer_number","started_at") INCLUDE ("part_number","denial_reason","email") WHERE "outcome" = 'denied';
--> statement-breakpoint
CREATE INDEX "web_leases_open_idx" ON "web_leases" USING btree ("customer_number","part_number") WHERE "outcome" = 'open';
--> statement-breakpoint
CREATE INDEX "web_leases_seat_use_idx" ON "web_leases" USING btree ("customer_number","part_number","user_id","ended_at") WHERE "outcome" <> 'denied';
--> statement-breakpoint
CREATE INDEX "web_leases_user_open_idx" ON "web_leases" USING btree ("user_id") WHERE "outcome" = 'open';
--> statement-breakpoint
CREATE TABLE "web_leases_default" PARTITION OF "web_leases" DEFAULT;
--> statement-breakpoint
SELECT "lp_month_partition"('web_leases', m::date)
  FROM generate_series(
    least(
      date_trunc('month', now() AT TIME ZONE 'UTC'),
      greatest(
        coalesce(
          date_trunc('month', (SELECT min("started_at") FROM "web_leases_unpartitioned") AT TIME ZONE 'UTC'),
          date_trunc('month', now() AT TIME ZONE 'UTC')),
        date_trunc('month', now() AT TIME ZONE 'UTC') - interval '120 months')),
    greatest(
      date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
      date_trunc('month', (SELECT max("started_at") FROM "web_leases_unpartitioned") AT TIME ZONE 'UTC')),
    interval '1 month') AS m;
--> statement-breakpoint
INSERT INTO "web_leases" OVERRIDING SYSTEM VALUE SELECT * FROM "web_leases_unpartitioned";
--> statement-breakpoint
-- The identity goes on after the old rows' ids.
SELECT setval(pg_get_serial_sequence('web_leases', 'id'), (SELECT coalesce(max("id"), 0) + 1 FROM "web_leases"), false);
--> statement-breakpoint
DROP TABLE "web_leases_unpartitioned";
--> statement-breakpoint
-- The identity's sequence keeps the old name (LIKE made a new one beside the old table's).
DO $$ BEGIN
  EXECUTE format('ALTER SEQUENCE %s RENAME TO web_leases_id_seq', pg_get_serial_sequence('web_leases', 'id'));
END $$;
