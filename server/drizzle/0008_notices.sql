-- Proactive notices (issue 13 §2, decision 041): each finding once per threshold, what users chose to receive,
-- and the notice types an account's administrators switched off.
CREATE TABLE "notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL REFERENCES "accounts"("customer_number") ON DELETE CASCADE,
	"type" text NOT NULL,
	"object_id" text NOT NULL,
	"threshold" integer NOT NULL,
	"text" text NOT NULL,
	"found_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "notices_once" ON "notices" ("customer_number", "type", "object_id", "threshold");
--> statement-breakpoint
CREATE INDEX "notices_customer_created" ON "notices" ("customer_number", "created_at" DESC);
--> statement-breakpoint
CREATE TABLE "notice_choices" (
	"user_email" text NOT NULL,
	"customer_number" text NOT NULL REFERENCES "accounts"("customer_number") ON DELETE CASCADE,
	"expiry_days" integer[] NOT NULL,
	"usage_percents" integer[] NOT NULL,
	"run_out" boolean NOT NULL,
	CONSTRAINT "notice_choices_pkey" PRIMARY KEY ("user_email", "customer_number")
);
--> statement-breakpoint
CREATE TABLE "notice_settings" (
	"customer_number" text PRIMARY KEY NOT NULL REFERENCES "accounts"("customer_number") ON DELETE CASCADE,
	"disabled_types" text[] DEFAULT '{}' NOT NULL
);
