-- Audit evidence (issue 20 §5 and §7, decision 044). TRUNCATE bypasses row triggers: refuse it with statement
-- triggers. A chain head only ever moves forward by one entry, and is never deleted.
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries"
	FOR EACH STATEMENT EXECUTE FUNCTION "audit_entries_append_only"();
--> statement-breakpoint
CREATE FUNCTION "audit_chain_heads_forward_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF NEW.chain = OLD.chain AND NEW.seq = OLD.seq + 1 THEN
			RETURN NEW;
		END IF;
	END IF;
	RAISE EXCEPTION 'audit chain heads only move forward';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_chain_heads_forward" BEFORE UPDATE OR DELETE ON "audit_chain_heads"
	FOR EACH ROW EXECUTE FUNCTION "audit_chain_heads_forward_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_chain_heads_no_truncate" BEFORE TRUNCATE ON "audit_chain_heads"
	FOR EACH STATEMENT EXECUTE FUNCTION "audit_chain_heads_forward_only"();
--> statement-breakpoint
-- The X-Request-Id a client sent, kept beside the server's own request id (never instead of it).
ALTER TABLE "audit_entries" ADD COLUMN "client_request_id" text;
--> statement-breakpoint
-- Each checkpoint run: when, what it anchored, and whether the chains still matched the previous checkpoint.
-- Informational (the Audit Log page); the signed files outside the database are the evidence.
CREATE TABLE "audit_checkpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"period" text,
	"node" text NOT NULL,
	"file" text,
	"chains" integer NOT NULL,
	"entries" bigint NOT NULL,
	"ok" boolean NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_checkpoints_at" ON "audit_checkpoints" ("at" DESC);
--> statement-breakpoint
CREATE INDEX "audit_checkpoints_period" ON "audit_checkpoints" ("period");
--> statement-breakpoint
-- Vendor-wide e-mails (the checkpoint copy to the audit address) belong to no account.
ALTER TABLE "emails" ALTER COLUMN "customer_number" DROP NOT NULL;
