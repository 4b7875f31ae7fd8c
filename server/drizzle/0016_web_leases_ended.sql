-- Issue 24, decision 071: the reports and /web-transactions' "Data as of" read web_leases by their end: the
-- sessions that overlap a report's period (started before it, ended in or after it), the named seats used in the
-- last 30/60/90 days, and the account's latest end. Started-at alone would read all of an account's history.
CREATE INDEX "web_leases_account_ended_idx" ON "web_leases" USING btree ("customer_number","ended_at");
