-- License servers get an owner-independent identity and a membership table (decision 028); fulfillments
-- become live counts per host and entitlement with their history in fulfillment_events; money and counts
-- become exact. Existing rows are carried over: hosts with the same identity (shared hosts) are merged.
CREATE TABLE "license_server_accounts" (
	"server_id" bigint NOT NULL,
	"customer_number" text NOT NULL,
	"in_shared_group" boolean DEFAULT false NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_server_accounts_server_id_customer_number_pk" PRIMARY KEY("server_id","customer_number")
);
--> statement-breakpoint
CREATE TABLE "license_signing_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"private_key_cipher" text NOT NULL,
	"public_key_pem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operation_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"user_email" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "host_identity" text;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "host_ids" text;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "host_id_types" text;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "server_names" text;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "port" integer DEFAULT 1055 NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "borrowable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "created_by" text DEFAULT 'Automated Action' NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "license_servers" SET
	"host_ids" = lower("host_id"),
	"host_id_types" = "host_id_type",
	"server_names" = "name",
	"host_identity" = CASE WHEN "kind" = 'elastic' THEN "host_id" ELSE (
		SELECT string_agg(CASE WHEN u.t IN ('ETHERNET', '') THEN lower(u.i) ELSE u.t || '=' || lower(u.i) END, ',' ORDER BY u.n)
		FROM unnest(string_to_array("host_id", ','), string_to_array("host_id_type", ',')) WITH ORDINALITY AS u(i, t, n)
	) END,
	"kind" = CASE WHEN "kind" = 'elastic' THEN 'elastic' ELSE 'flexlm' END,
	"state" = CASE upper("state") WHEN 'ACTIVE' THEN 'Active' WHEN 'INACTIVE' THEN 'Inactive' ELSE 'Unknown' END;--> statement-breakpoint
CREATE TEMPORARY TABLE "server_merge" ON COMMIT DROP AS
	SELECT s."id", min(s."id") OVER (PARTITION BY s."host_identity") AS "keep_id", s."customer_number"
	FROM "license_servers" s;--> statement-breakpoint
INSERT INTO "license_server_accounts" ("server_id", "customer_number")
	SELECT DISTINCT "keep_id", "customer_number" FROM "server_merge";--> statement-breakpoint
ALTER TABLE "fulfillments" RENAME TO "fulfillments_0003";--> statement-breakpoint
ALTER TABLE "fulfillments_0003" DROP CONSTRAINT "fulfillments_server_id_license_servers_id_fk";--> statement-breakpoint
ALTER TABLE "fulfillments_0003" DROP CONSTRAINT "fulfillments_entitlement_id_entitlements_id_fk";--> statement-breakpoint
DROP INDEX "fulfillments_server_idx";--> statement-breakpoint
UPDATE "fulfillments_0003" f SET "server_id" = m."keep_id" FROM "server_merge" m WHERE f."server_id" = m."id";--> statement-breakpoint
DELETE FROM "license_servers" s USING "server_merge" m WHERE s."id" = m."id" AND m."id" <> m."keep_id";--> statement-breakpoint
ALTER TABLE "license_servers" DROP CONSTRAINT "license_servers_customer_number_accounts_customer_number_fk";--> statement-breakpoint
DROP INDEX "license_servers_customer_idx";--> statement-breakpoint
ALTER TABLE "license_servers" DROP COLUMN "customer_number";--> statement-breakpoint
ALTER TABLE "license_servers" DROP COLUMN "host_id";--> statement-breakpoint
ALTER TABLE "license_servers" DROP COLUMN "host_id_type";--> statement-breakpoint
ALTER TABLE "license_servers" ALTER COLUMN "host_identity" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ALTER COLUMN "host_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ALTER COLUMN "host_id_types" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ALTER COLUMN "server_names" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "license_servers" ALTER COLUMN "state" SET DEFAULT 'Unknown';--> statement-breakpoint
ALTER TABLE "license_servers" ADD CONSTRAINT "license_servers_host_identity_unique" UNIQUE("host_identity");--> statement-breakpoint
ALTER TABLE "license_server_accounts" ADD CONSTRAINT "license_server_accounts_server_id_license_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."license_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_server_accounts" ADD CONSTRAINT "license_server_accounts_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_server_accounts_customer_idx" ON "license_server_accounts" USING btree ("customer_number");--> statement-breakpoint
CREATE TABLE "fulfillments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"server_id" bigint NOT NULL,
	"entitlement_id" bigint NOT NULL,
	"customer_number" text NOT NULL,
	"count" integer NOT NULL,
	"parent_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fulfillments_count_check" CHECK ("fulfillments"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "fulfillment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fulfillment_id" bigint NOT NULL,
	"server_id" bigint NOT NULL,
	"customer_number" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"modified_by" text NOT NULL,
	"action" text NOT NULL,
	"count" integer NOT NULL,
	"lifecycle_action" text,
	"parent_fulfillment_id" bigint
);
--> statement-breakpoint
INSERT INTO "fulfillments" ("server_id", "entitlement_id", "customer_number", "count", "created_at", "updated_at")
	SELECT f."server_id", f."entitlement_id", e."customer_number", greatest(sum(f."count"), 0), min(f."time"), max(f."time")
	FROM "fulfillments_0003" f JOIN "entitlements" e ON e."id" = f."entitlement_id"
	GROUP BY f."server_id", f."entitlement_id", e."customer_number";--> statement-breakpoint
INSERT INTO "fulfillment_events" ("fulfillment_id", "server_id", "customer_number", "time", "modified_by", "action", "count")
	SELECT n."id", o."server_id", n."customer_number", o."time", o."modified_by", CASE WHEN o."count" > 0 THEN 'ACTIVATE' ELSE 'RETURN' END, o."count"
	FROM "fulfillments_0003" o JOIN "fulfillments" n ON n."server_id" = o."server_id" AND n."entitlement_id" = o."entitlement_id"
	ORDER BY o."id";--> statement-breakpoint
DROP TABLE "fulfillments_0003";--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_server_id_license_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."license_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_entitlement_id_entitlements_id_fk" FOREIGN KEY ("entitlement_id") REFERENCES "public"."entitlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_parent_id_fulfillments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."fulfillments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillment_events" ADD CONSTRAINT "fulfillment_events_fulfillment_id_fulfillments_id_fk" FOREIGN KEY ("fulfillment_id") REFERENCES "public"."fulfillments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillment_events" ADD CONSTRAINT "fulfillment_events_server_id_license_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."license_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fulfillments_server_entitlement_idx" ON "fulfillments" USING btree ("server_id","entitlement_id");--> statement-breakpoint
CREATE INDEX "fulfillments_entitlement_idx" ON "fulfillments" USING btree ("entitlement_id");--> statement-breakpoint
CREATE INDEX "fulfillments_customer_idx" ON "fulfillments" USING btree ("customer_number");--> statement-breakpoint
CREATE INDEX "fulfillment_events_server_time_idx" ON "fulfillment_events" USING btree ("server_id","time");--> statement-breakpoint
ALTER TABLE "entitlements" ALTER COLUMN "quantity" SET DATA TYPE bigint USING round("quantity");--> statement-breakpoint
ALTER TABLE "entitlements" ADD COLUMN "activated" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "entitlements" e SET "activated" = least(t."n", e."quantity")
	FROM (SELECT "entitlement_id", sum("count") AS "n" FROM "fulfillments" GROUP BY "entitlement_id") t
	WHERE t."entitlement_id" = e."id";--> statement-breakpoint
ALTER TABLE "entitlements" ADD COLUMN "price_cents" bigint;--> statement-breakpoint
UPDATE "entitlements" SET "price_cents" = round("price" * 100) WHERE "price" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "entitlements" DROP COLUMN "price";--> statement-breakpoint
ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_activated_check" CHECK ("entitlements"."activated" >= 0 and "entitlements"."activated" <= "entitlements"."quantity");--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_7_days_cents" bigint;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_30_days_cents" bigint;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_60_days_cents" bigint;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_90_days_cents" bigint;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_180_days_cents" bigint;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD COLUMN "price_1_year_cents" bigint;--> statement-breakpoint
UPDATE "fsa_prices" SET "price_7_days_cents" = round("price_7_days" * 100), "price_30_days_cents" = round("price_30_days" * 100),
	"price_60_days_cents" = round("price_60_days" * 100), "price_90_days_cents" = round("price_90_days" * 100),
	"price_180_days_cents" = round("price_180_days" * 100), "price_1_year_cents" = round("price_1_year" * 100);--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_7_days";--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_30_days";--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_60_days";--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_90_days";--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_180_days";--> statement-breakpoint
ALTER TABLE "fsa_prices" DROP COLUMN "price_1_year";--> statement-breakpoint
DELETE FROM "ip_rules" r WHERE NOT EXISTS (SELECT 1 FROM "license_servers" s WHERE s."host_identity" = r."cls_id");--> statement-breakpoint
DELETE FROM "cls_credentials" r WHERE NOT EXISTS (SELECT 1 FROM "license_servers" s WHERE s."host_identity" = r."cls_id");--> statement-breakpoint
DELETE FROM "elastic_server_settings" r WHERE NOT EXISTS (SELECT 1 FROM "license_servers" s WHERE s."host_identity" = r."cls_id");--> statement-breakpoint
ALTER TABLE "cls_credentials" ADD CONSTRAINT "cls_credentials_cls_id_license_servers_host_identity_fk" FOREIGN KEY ("cls_id") REFERENCES "public"."license_servers"("host_identity") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "elastic_server_settings" ADD CONSTRAINT "elastic_server_settings_cls_id_license_servers_host_identity_fk" FOREIGN KEY ("cls_id") REFERENCES "public"."license_servers"("host_identity") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "ip_rules" ADD CONSTRAINT "ip_rules_cls_id_license_servers_host_identity_fk" FOREIGN KEY ("cls_id") REFERENCES "public"."license_servers"("host_identity") ON DELETE cascade ON UPDATE cascade;
