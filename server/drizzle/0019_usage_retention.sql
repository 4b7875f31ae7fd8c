-- Issue 25 §1, decision 073: raw usage sessions are kept USAGE_RETENTION_MONTHS months; when a month's partition
-- is dropped, its sessions are first summed per account, UTC day, license server and product here, kept for ever.
-- Statements and balances read the ledger and its daily rollups (elastic_daily_usage), which no drop touches.
CREATE TABLE "usage_daily_rollups" (
	"customer_number" text NOT NULL,
	"day" date NOT NULL,
	"server_id" text NOT NULL,
	"product" text NOT NULL,
	"sessions" integer NOT NULL,
	"hours" double precision NOT NULL,
	"charged_cents" bigint NOT NULL,
	CONSTRAINT "usage_daily_rollups_pk" PRIMARY KEY("customer_number","day","server_id","product")
);
