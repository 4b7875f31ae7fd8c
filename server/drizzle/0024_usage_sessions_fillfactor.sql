-- Issue 25 §4, decision 079: usage_sessions pages keep half their space free, so that a session's end (and each
-- heartbeat) writes its row's new version on the same page, a HOT update: no new entry in the four indexes.
-- A partitioned table holds no storage options, so the default partition carries them and lp_month_partition
-- gives each new month partition the default partition's options. Existing partitions take the setting for the
-- pages they fill from now on (ALTER TABLE SET takes no rewrite). The lock (the one ATTACH PARTITION takes; reads
-- and writes go on) keeps a node still running the old function from attaching a month the loop did not see.
LOCK TABLE "usage_sessions" IN SHARE UPDATE EXCLUSIVE MODE;
--> statement-breakpoint
DO $$
DECLARE
  part regclass;
BEGIN
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'usage_sessions'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 50)', part);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "lp_month_partition"(parent text, month_start date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := (date_trunc('month', month_start)::timestamp AT TIME ZONE 'UTC');
  hi timestamptz := ((date_trunc('month', month_start) + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  part text := parent || '_p' || to_char(date_trunc('month', month_start), 'YYYY_MM');
  key text;
  options text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lp_month_partition ' || part));
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN part;
  END IF;
  SELECT a.attname INTO key
    FROM pg_partitioned_table p
    JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
   WHERE p.partrelid = parent::regclass;
  -- The storage options (fillfactor) of the default partition, the parent's own being impossible.
  SELECT string_agg(format('%I = %L', o.option_name, o.option_value), ', ') INTO options
    FROM pg_class c, pg_options_to_table(c.reloptions) o
   WHERE c.oid = to_regclass(quote_ident(parent || '_default'));
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)%s', part, parent,
    CASE WHEN coalesce(options, '') = '' THEN '' ELSE format(' WITH (%s)', options) END);
  EXECUTE format(
    'WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', key, key, part) USING lo, hi;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  RETURN part;
END
$$;
