CREATE TABLE "ip_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_number" text NOT NULL,
	"cls_id" text NOT NULL,
	"position" integer NOT NULL,
	"rule_name" text NOT NULL,
	"ip_address" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "cc_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "delivery_status" text DEFAULT 'recorded' NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ip_rules" ADD CONSTRAINT "ip_rules_customer_number_accounts_customer_number_fk" FOREIGN KEY ("customer_number") REFERENCES "public"."accounts"("customer_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ip_rules_customer_cls_idx" ON "ip_rules" USING btree ("customer_number","cls_id","position");--> statement-breakpoint
CREATE INDEX "emails_outbox_idx" ON "emails" USING btree ("delivery_status","next_attempt_at");