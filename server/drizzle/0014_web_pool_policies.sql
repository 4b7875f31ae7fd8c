-- Issue 24, decision 071: each web seat pool's lease policy. A pool is computed from the account's entitlement
-- lines (Named User and Shared Web models); this table only keeps the policy of pools whose defaults were changed.
CREATE TABLE "web_pool_policies" (
	"customer_number" text NOT NULL,
	"part_number" text NOT NULL,
	"heartbeat_window_seconds" integer DEFAULT 300 NOT NULL,
	"idle_timeout_seconds" integer DEFAULT 900 NOT NULL,
	"sessions_per_user" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "web_pool_policies_customer_number_part_number_pk" PRIMARY KEY("customer_number","part_number"),
	CONSTRAINT "web_pool_policies_heartbeat_check" CHECK ("web_pool_policies"."heartbeat_window_seconds" between 60 and 3600),
	CONSTRAINT "web_pool_policies_idle_check" CHECK ("web_pool_policies"."idle_timeout_seconds" between 60 and 86400),
	CONSTRAINT "web_pool_policies_sessions_check" CHECK ("web_pool_policies"."sessions_per_user" between 1 and 10)
);
--> statement-breakpoint
ALTER TABLE "web_pool_policies" ADD CONSTRAINT "web_pool_policies_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_pool_policies" ADD CONSTRAINT "web_pool_policies_part_number_products_part_number_fk" FOREIGN KEY ("part_number") REFERENCES "public"."products"("part_number") ON DELETE no action ON UPDATE no action;
