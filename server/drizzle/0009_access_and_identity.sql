-- Access and identity (issue 20 §1-3, decision 042): each user is bound to the identity provider's (issuer, subject)
-- on first sign-in; a user can be disabled (every session and token stops at once); vendor roles carry the time the
-- provider last confirmed them, so a personal API token cannot act on them forever; tokens have a name and a last use.
ALTER TABLE "users" ADD COLUMN "idp_issuer" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "idp_subject" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;
--> statement-breakpoint
-- Existing users' roles count as confirmed at their last sign-in (never signed in: not confirmed).
ALTER TABLE "users" ADD COLUMN "roles_confirmed_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "roles_confirmed_at" = "last_login_at";
--> statement-breakpoint
CREATE UNIQUE INDEX "users_idp_identity" ON "users" ("idp_issuer", "idp_subject");
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_idp_identity_pair" CHECK (("idp_issuer" IS NULL) = ("idp_subject" IS NULL));
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "last_used_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" ("user_id");
--> statement-breakpoint
-- Set-password links of the built-in provider (operator CLI): only the hash of the link's secret is stored.
CREATE TABLE "password_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"idp_account_id" uuid NOT NULL REFERENCES "idp_accounts"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "password_links_account_idx" ON "password_links" ("idp_account_id");
