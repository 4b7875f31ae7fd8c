-- Decision 062: a transaction appends its entries to a chain in one batch and moves the chain's head once, to its
-- last entry. A head may still only move forward, and now only onto an entry of its chain with that seq and hash
-- (was: exactly one entry forward); deleting a head and truncating stay refused.
CREATE OR REPLACE FUNCTION "audit_chain_heads_forward_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF NEW.chain = OLD.chain AND NEW.seq > OLD.seq AND EXISTS (
			SELECT 1 FROM "audit_entries" e WHERE e.chain = NEW.chain AND e.seq = NEW.seq AND e.hash = NEW.hash
		) THEN
			RETURN NEW;
		END IF;
	END IF;
	RAISE EXCEPTION 'audit chain heads only move forward';
END;
$$;
