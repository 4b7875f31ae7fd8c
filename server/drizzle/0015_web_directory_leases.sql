-- Issue 24, decision 071: the account's directory of people and groups, named seats and group terms, transfers,
-- per-product credentials of the web-license API, session leases and denials, and SCIM tokens.
CREATE TABLE "web_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"state" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"scim_external_id" text,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "web_users_account_email_key" UNIQUE("customer_number","email"),
	CONSTRAINT "web_users_email_lower_check" CHECK ("web_users"."email" = lower("web_users"."email")),
	CONSTRAINT "web_users_source_check" CHECK ("web_users"."source" in ('manual', 'csv', 'sign-in', 'scim')),
	CONSTRAINT "web_users_state_check" CHECK ("web_users"."state" in ('invited', 'active', 'suspended', 'removed')),
	CONSTRAINT "web_users_role_check" CHECK ("web_users"."role" in ('member', 'administrator'))
);
--> statement-breakpoint
CREATE TABLE "web_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"scim_external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "web_groups_account_name_key" UNIQUE("customer_number","name"),
	CONSTRAINT "web_groups_source_check" CHECK ("web_groups"."source" in ('manual', 'scim'))
);
--> statement-breakpoint
CREATE TABLE "web_group_members" (
	"group_id" uuid NOT NULL REFERENCES "public"."web_groups"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "public"."web_users"("id") ON DELETE cascade,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "web_group_members_user_idx" ON "web_group_members" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "web_named_seats" (
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL REFERENCES "public"."products"("part_number"),
	"user_id" uuid NOT NULL REFERENCES "public"."web_users"("id") ON DELETE cascade,
	"group_id" uuid REFERENCES "public"."web_groups"("id") ON DELETE set null,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_named_seats_customer_number_part_number_user_id_pk" PRIMARY KEY("customer_number","part_number","user_id")
);
--> statement-breakpoint
CREATE INDEX "web_named_seats_user_idx" ON "web_named_seats" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "web_seat_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL,
	"from_user_id" uuid REFERENCES "public"."web_users"("id") ON DELETE set null,
	"to_user_id" uuid REFERENCES "public"."web_users"("id") ON DELETE set null,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "web_seat_transfers_pool_at_idx" ON "web_seat_transfers" USING btree ("customer_number","part_number","at");
--> statement-breakpoint
CREATE TABLE "web_group_terms" (
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL REFERENCES "public"."products"("part_number"),
	"group_id" uuid NOT NULL REFERENCES "public"."web_groups"("id") ON DELETE cascade,
	"guaranteed" integer DEFAULT 0 NOT NULL,
	"cap" integer,
	CONSTRAINT "web_group_terms_customer_number_part_number_group_id_pk" PRIMARY KEY("customer_number","part_number","group_id"),
	CONSTRAINT "web_group_terms_guaranteed_check" CHECK ("web_group_terms"."guaranteed" >= 0),
	CONSTRAINT "web_group_terms_cap_check" CHECK ("web_group_terms"."cap" is null or ("web_group_terms"."cap" >= 1 and "web_group_terms"."cap" >= "web_group_terms"."guaranteed"))
);
--> statement-breakpoint
CREATE TABLE "web_group_pools" (
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL REFERENCES "public"."products"("part_number"),
	"group_id" uuid NOT NULL REFERENCES "public"."web_groups"("id") ON DELETE cascade,
	CONSTRAINT "web_group_pools_customer_number_part_number_group_id_pk" PRIMARY KEY("customer_number","part_number","group_id")
);
--> statement-breakpoint
CREATE TABLE "web_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product" text NOT NULL,
	"part_numbers" text[] NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "web_credentials_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "web_leases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"lease_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"part_number" text NOT NULL,
	"pool_kind" text,
	"user_id" uuid REFERENCES "public"."web_users"("id") ON DELETE set null,
	"email" text NOT NULL,
	"group_id" uuid REFERENCES "public"."web_groups"("id") ON DELETE set null,
	"credential_id" uuid REFERENCES "public"."web_credentials"("id") ON DELETE set null,
	"product" text NOT NULL,
	"client" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"denial_reason" text,
	CONSTRAINT "web_leases_lease_id_unique" UNIQUE("lease_id"),
	CONSTRAINT "web_leases_outcome_check" CHECK ("web_leases"."outcome" in ('open', 'released', 'idle-timeout', 'heartbeat-lost', 'admin-released', 'user-removed', 'denied')),
	CONSTRAINT "web_leases_denial_check" CHECK (("web_leases"."outcome" = 'denied') = ("web_leases"."denial_reason" is not null) and ("web_leases"."denial_reason" is null or "web_leases"."denial_reason" in ('no-seat-assigned', 'pool-full', 'group-cap', 'suspended-user', 'unknown-user', 'no-pool', 'session-limit'))),
	CONSTRAINT "web_leases_pool_kind_check" CHECK ("web_leases"."pool_kind" is null or "web_leases"."pool_kind" in ('named', 'shared'))
);
--> statement-breakpoint
CREATE INDEX "web_leases_account_started_idx" ON "web_leases" USING btree ("customer_number","started_at");
--> statement-breakpoint
CREATE INDEX "web_leases_open_idx" ON "web_leases" USING btree ("customer_number","part_number") WHERE "web_leases"."outcome" = 'open';
--> statement-breakpoint
CREATE INDEX "web_leases_user_open_idx" ON "web_leases" USING btree ("user_id") WHERE "web_leases"."outcome" = 'open';
--> statement-breakpoint
CREATE TABLE "scim_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_number" text NOT NULL REFERENCES "public"."accounts"("customer_number") ON DELETE cascade,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "scim_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE INDEX "scim_tokens_account_idx" ON "scim_tokens" USING btree ("customer_number");
