-- Issue 25 §4, decision 077: the distinct values of User and Product over a StartTime window without reading every
-- session in it. User: a loose index scan (one probe per value) over the account's sessions in username order, so the
-- index of (customer_number, username) gains start_time before id (it served the same equality lookups before).
-- Product: the daily counts gain the product in their key, so a window's whole days name their products at once.
LOCK TABLE "usage_sessions" IN SHARE MODE;
--> statement-breakpoint
DROP INDEX "usage_sessions_customer_user_idx";
--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_user_idx" ON "usage_sessions" USING btree ("customer_number","username","start_time","id");
--> statement-breakpoint
DELETE FROM "usage_daily_counts";
--> statement-breakpoint
ALTER TABLE "usage_daily_counts" DROP CONSTRAINT "usage_daily_counts_pk";
--> statement-breakpoint
ALTER TABLE "usage_daily_counts" ADD COLUMN "product" text NOT NULL;
--> statement-breakpoint
ALTER TABLE "usage_daily_counts" ADD CONSTRAINT "usage_daily_counts_pk" PRIMARY KEY("customer_number","day","server_id","product");
--> statement-breakpoint
-- Rows in key order, so two batches of one account lock their days in the same order.
CREATE OR REPLACE FUNCTION lp_count_usage_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_counts (customer_number, server_id, day, product, sessions)
  SELECT customer_number, server_id, (start_time AT TIME ZONE 'UTC')::date, product, count(*)
  FROM new_sessions
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 3, 2, 4
  ON CONFLICT (customer_number, day, server_id, product)
  DO UPDATE SET sessions = usage_daily_counts.sessions + excluded.sessions;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "usage_daily_counts" ("customer_number", "server_id", "day", "product", "sessions")
SELECT customer_number, server_id, (start_time AT TIME ZONE 'UTC')::date, product, count(*)
FROM usage_sessions
GROUP BY 1, 2, 3, 4;
