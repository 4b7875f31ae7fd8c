CREATE TABLE "accounts" (
	"customer_number" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"org_type" text DEFAULT 'Undefined' NOT NULL,
	"export_control_status" text DEFAULT '' NOT NULL,
	"support_email" text DEFAULT '' NOT NULL,
	"is_access_disabled" boolean DEFAULT false NOT NULL,
	"is_fnp_license_generator" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"date" timestamp with time zone NOT NULL,
	"expires" timestamp with time zone,
	"services" text[] NOT NULL,
	"description" text NOT NULL,
	"links" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entitlements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL,
	"activation_id" text NOT NULL,
	"kind" text NOT NULL,
	"license_model" text NOT NULL,
	"license_type" text DEFAULT 'server' NOT NULL,
	"state" text DEFAULT 'Deployed' NOT NULL,
	"part_number" text,
	"quantity" double precision NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text,
	"is_evaluation" boolean DEFAULT false NOT NULL,
	"po_number" text,
	"rate_table_version" text,
	"currency" text,
	"price" double precision,
	"version_date" text,
	"product_name" text,
	"fsa_contract_id" bigint,
	"ordered_at" timestamp with time zone,
	"ordered_by" text,
	CONSTRAINT "entitlements_activation_id_unique" UNIQUE("activation_id")
);
--> statement-breakpoint
CREATE TABLE "features" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"conflicts" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fsa_prices" (
	"contract_id" bigint NOT NULL,
	"part_number" text NOT NULL,
	"price_7_days" double precision,
	"price_30_days" double precision,
	"price_60_days" double precision,
	"price_90_days" double precision,
	"price_180_days" double precision,
	"price_1_year" double precision,
	CONSTRAINT "fsa_prices_contract_id_part_number_pk" PRIMARY KEY("contract_id","part_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"server_id" bigint NOT NULL,
	"entitlement_id" bigint NOT NULL,
	"count" integer NOT NULL,
	"action" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"modified_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idp_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"password_hash" text NOT NULL,
	CONSTRAINT "idp_accounts_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "license_servers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL,
	"name" text NOT NULL,
	"host_id" text NOT NULL,
	"host_id_type" text NOT NULL,
	"kind" text NOT NULL,
	"alias" text,
	"state" text DEFAULT 'ACTIVE' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"return_to" text DEFAULT '/' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_store" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"user_code" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_store_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "portal_contacts" (
	"customer_number" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "portal_contacts_customer_number_email_pk" PRIMARY KEY("customer_number","email")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"part_number" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"family" text NOT NULL,
	"daemon" text NOT NULL,
	"feature_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"id_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "table_prefs" (
	"user_id" uuid NOT NULL,
	"customer_number" text NOT NULL,
	"table_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "table_prefs_user_id_customer_number_table_name_pk" PRIMARY KEY("user_id","customer_number","table_name")
);
--> statement-breakpoint
CREATE TABLE "usage_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
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
	"server_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_features" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"enabled" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"vendor_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_part_number_products_part_number_fk" FOREIGN KEY ("part_number") REFERENCES "public"."products"("part_number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_fsa_contract_id_entitlements_id_fk" FOREIGN KEY ("fsa_contract_id") REFERENCES "public"."entitlements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD CONSTRAINT "fsa_prices_contract_id_entitlements_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."entitlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fsa_prices" ADD CONSTRAINT "fsa_prices_part_number_products_part_number_fk" FOREIGN KEY ("part_number") REFERENCES "public"."products"("part_number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_server_id_license_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."license_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_entitlement_id_entitlements_id_fk" FOREIGN KEY ("entitlement_id") REFERENCES "public"."entitlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_servers" ADD CONSTRAINT "license_servers_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_contacts" ADD CONSTRAINT "portal_contacts_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_prefs" ADD CONSTRAINT "table_prefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_features" ADD CONSTRAINT "user_features_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "emails_customer_date_idx" ON "emails" USING btree ("customer_number","date");--> statement-breakpoint
CREATE INDEX "entitlements_customer_kind_idx" ON "entitlements" USING btree ("customer_number","kind");--> statement-breakpoint
CREATE INDEX "entitlements_fsa_contract_idx" ON "entitlements" USING btree ("fsa_contract_id");--> statement-breakpoint
CREATE INDEX "fulfillments_server_idx" ON "fulfillments" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "license_servers_customer_idx" ON "license_servers" USING btree ("customer_number");--> statement-breakpoint
CREATE INDEX "oidc_store_grant_idx" ON "oidc_store" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_store_uid_idx" ON "oidc_store" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "portal_contacts_email_idx" ON "portal_contacts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_start_idx" ON "usage_sessions" USING btree ("customer_number","start_time","id");--> statement-breakpoint
CREATE INDEX "usage_sessions_customer_user_idx" ON "usage_sessions" USING btree ("customer_number","username","id");