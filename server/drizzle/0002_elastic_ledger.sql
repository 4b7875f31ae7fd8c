CREATE TABLE "cls_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_number" text NOT NULL,
	"cls_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "cls_credentials_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "elastic_daily_usage" (
	"customer_number" text NOT NULL,
	"day" text NOT NULL,
	"entitlement_id" bigint NOT NULL,
	"product" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "elastic_daily_usage_customer_number_entitlement_id_day_product_pk" PRIMARY KEY("customer_number","entitlement_id","day","product")
);
--> statement-breakpoint
CREATE TABLE "elastic_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL,
	"entitlement_id" bigint,
	"session_row_id" bigint,
	"kind" text NOT NULL,
	"product" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "elastic_server_settings" (
	"customer_number" text NOT NULL,
	"cls_id" text NOT NULL,
	"pin_cipher" text,
	"users" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "elastic_server_settings_customer_number_cls_id_pk" PRIMARY KEY("customer_number","cls_id")
);
--> statement-breakpoint
CREATE TABLE "rate_tables" (
	"version" text NOT NULL,
	"product" text NOT NULL,
	"rate" double precision NOT NULL,
	CONSTRAINT "rate_tables_version_product_pk" PRIMARY KEY("version","product")
);
--> statement-breakpoint
ALTER TABLE "entitlements" ADD COLUMN "used_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "rate_table_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "charged_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_sessions" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cls_credentials" ADD CONSTRAINT "cls_credentials_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_ledger" ADD CONSTRAINT "elastic_ledger_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_ledger" ADD CONSTRAINT "elastic_ledger_entitlement_id_entitlements_id_fk" FOREIGN KEY ("entitlement_id") REFERENCES "public"."entitlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_server_settings" ADD CONSTRAINT "elastic_server_settings_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cls_credentials_server_idx" ON "cls_credentials" USING btree ("customer_number","cls_id");--> statement-breakpoint
CREATE INDEX "elastic_ledger_customer_at_idx" ON "elastic_ledger" USING btree ("customer_number","at");--> statement-breakpoint
CREATE INDEX "elastic_ledger_entitlement_idx" ON "elastic_ledger" USING btree ("entitlement_id");--> statement-breakpoint
CREATE INDEX "elastic_ledger_session_idx" ON "elastic_ledger" USING btree ("session_row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_sessions_server_session_idx" ON "usage_sessions" USING btree ("server_id","session_id");--> statement-breakpoint
-- Covering index for the transactions grid: count and distinct over one account's period read the index only.
DROP INDEX IF EXISTS "usage_sessions_customer_start_idx";--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_start_idx" ON "usage_sessions" USING btree ("customer_number","start_time","id") INCLUDE ("username","product");
