-- Issue 25 §4, decision 076: the number of usage sessions per account, license server and UTC day of their start,
-- kept by a statement-level trigger for every insert, whoever writes; retention clears a retired month's days. A
-- count whose filter is only a StartTime range sums the whole days here and counts the raw rows of its two edge days.
CREATE TABLE "usage_daily_counts" (
	"customer_number" text NOT NULL,
	"server_id" text NOT NULL,
	"day" date NOT NULL,
	"sessions" bigint NOT NULL,
	CONSTRAINT "usage_daily_counts_pk" PRIMARY KEY("customer_number","day","server_id")
);
--> statement-breakpoint
-- Rows in key order, so two batches of one account lock their days in the same order.
CREATE FUNCTION lp_count_usage_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_counts (customer_number, server_id, day, sessions)
  SELECT customer_number, server_id, (start_time AT TIME ZONE 'UTC')::date, count(*)
  FROM new_sessions
  GROUP BY 1, 2, 3
  ORDER BY 1, 3, 2
  ON CONFLICT (customer_number, day, server_id)
  DO UPDATE SET sessions = usage_daily_counts.sessions + excluded.sessions;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "usage_sessions_daily_count" AFTER INSERT ON "usage_sessions"
  REFERENCING NEW TABLE AS new_sessions FOR EACH STATEMENT EXECUTE FUNCTION lp_count_usage_sessions();
--> statement-breakpoint
INSERT INTO "usage_daily_counts" ("customer_number", "server_id", "day", "sessions")
SELECT customer_number, server_id, (start_time AT TIME ZONE 'UTC')::date, count(*)
FROM usage_sessions
GROUP BY 1, 2, 3;
