-- Issue 25 §4, decision 078: usage is posted to the ledger as one row per entitlement (or overage), product and UTC
-- day of each batch, summed over the batch's sessions, not one row per session's charge. New rows name no session;
-- the column keeps what earlier rows said (an upgrade keeps every value), and its index, which no query read, goes.
DROP INDEX "elastic_ledger_session_idx";
