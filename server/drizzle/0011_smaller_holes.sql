-- Issue 20 §7. The user who asked for an e-mail (a statement, a license file), so the per-user and per-account
-- hourly limits are counted in the database that every API node shares (decision 045); null for the portal's own.
ALTER TABLE "emails" ADD COLUMN "requested_by" text;
--> statement-breakpoint
CREATE INDEX "emails_requested_by_date_idx" ON "emails" USING btree ("requested_by","date") WHERE "requested_by" IS NOT NULL;
--> statement-breakpoint
-- Decision 017 (revised): failed sign-ins counted per (e-mail, client address), with growing delays, and the
-- addresses a user has signed in from; keyed by an HMAC, so neither e-mails nor addresses are stored.
CREATE TABLE "sign_in_address_failures" (
	"pair_key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"succeeded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sign_in_address_failures_last_failure_idx" ON "sign_in_address_failures" USING btree ("last_failure_at");
