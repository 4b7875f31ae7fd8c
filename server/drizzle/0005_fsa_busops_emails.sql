-- FSA contracts carry their business-operations e-mail list (spec 002 §3 ansysbusopsemails; decision 036).
-- A nullable column: existing rows keep their data and read as an empty list.
ALTER TABLE "entitlements" ADD COLUMN "busops_emails" text;