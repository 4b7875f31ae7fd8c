-- Issue 25 §4, decision 078: usage is posted to the ledger as one row per entitlement (or overage), product and UTC
-- day of each batch, summed over the batch's sessions, not one row per session's charge. The row no longer names a
-- session: its column and index go (no query read them; each session keeps its charge and paying entitlement).
DROP INDEX "elastic_ledger_session_idx";
--> statement-breakpoint
ALTER TABLE "elastic_ledger" DROP COLUMN "session_row_id";
