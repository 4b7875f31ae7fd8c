-- Issue 24 §5, decision 071 (as built): the reports of a year read rollups of closed hours instead of every
-- session. web_usage_hours: per account, pool and group (the nil uuid: the whole pool) and UTC hour, the sessions
-- started in it, open at some time in it and the most open at once in it. web_usage_people: per account, pool,
-- group (nil: the whole pool), person and UTC year, the days of the year the person had a session (bit d-1 of
-- 366, d the day of the year), so a period's distinct people are one row per person and year.
-- web_usage_watermark: hours before rolled_until are rolled up; the reports read web_leases from there on.
CREATE TABLE "web_usage_hours" (
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL,
	"group_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"started" integer NOT NULL,
	"active" integer NOT NULL,
	"peak" integer NOT NULL,
	CONSTRAINT "web_usage_hours_pk" PRIMARY KEY("customer_number","part_number","group_id","hour")
);
--> statement-breakpoint
CREATE INDEX "web_usage_hours_hour_idx" ON "web_usage_hours" USING btree ("hour");
--> statement-breakpoint
CREATE TABLE "web_usage_people" (
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL,
	"group_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"days" bit(366) NOT NULL,
	CONSTRAINT "web_usage_people_pk" PRIMARY KEY("customer_number","year","part_number","group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "web_usage_watermark" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_usage_watermark_one_row_check" CHECK ("web_usage_watermark"."id")
);
--> statement-breakpoint
-- The reclaim list: per named seat, the person's open session and latest end in the pool, two index probes.
CREATE INDEX "web_leases_seat_use_idx" ON "web_leases" USING btree ("customer_number","part_number","user_id","ended_at") WHERE "web_leases"."outcome" <> 'denied';
--> statement-breakpoint
-- The denials report reads the 2 % of rows that are denials, from the index alone.
CREATE INDEX "web_leases_denied_idx" ON "web_leases" USING btree ("customer_number","started_at") INCLUDE ("part_number","denial_reason","email") WHERE "web_leases"."outcome" = 'denied';
