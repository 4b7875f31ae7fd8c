-- Audit log (issue 13 §1, decision 039): one append-only, hash-chained record of every change. A chain per account
-- ('*' for changes of no account); its head row is locked by each append, so a chain's entries are numbered without
-- gaps and each hash covers the previous one.
CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"customer_number" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"client_ip" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_entries_actor_kind" CHECK ("actor_kind" IN ('user', 'api-token', 'license-server', 'automated'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_entries_chain_seq" ON "audit_entries" ("chain", "seq");
--> statement-breakpoint
CREATE INDEX "audit_entries_customer_at" ON "audit_entries" ("customer_number", "at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "audit_entries_at" ON "audit_entries" ("at" DESC, "id" DESC);
--> statement-breakpoint
CREATE TABLE "audit_chain_heads" (
	"chain" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
-- Append-only in the database too: the application has no update or delete path, and the table refuses them.
CREATE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit entries are append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_change" BEFORE UPDATE OR DELETE ON "audit_entries"
	FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();
