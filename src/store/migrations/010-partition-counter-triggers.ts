/**
 * Counters follow a DELETE or TRUNCATE aimed at a day's partition, not only at the parent.
 *
 * The counter triggers of migrations 002, 004 and 007 are statement-level triggers on
 * policy_audits and ruleset_audits, and a statement-level trigger fires only for statements aimed
 * at its own table: `DELETE FROM policy_audits_p20261124 ...` or `TRUNCATE` of that partition
 * left its audits counted (counts, timeseries and recommendations then disagreed with the rows).
 * Each audit partition now carries the same two triggers itself: a DELETE subtracts what its
 * transition table held (the same functions the parents use) and a TRUNCATE removes the counters
 * of the partition's day, which hold only that day's audits (every bucket lies inside one UTC
 * day). A statement aimed at the parent still fires only the parent's triggers, so nothing is
 * counted twice. verdict_ensure_audit_partition gives every new day's partitions the triggers;
 * the days that exist get them here.
 */
export const sql = `
CREATE FUNCTION verdict_clear_audit_day_counters() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  day date := verdict_audit_partition_day(TG_TABLE_NAME::text);
  lower_bound timestamptz := day::timestamp AT TIME ZONE 'UTC';
  upper_bound timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
  -- TG_ARGV: the counter tables of the partition's parent.
  EXECUTE format('DELETE FROM %I WHERE bucket >= $1 AND bucket < $2', TG_ARGV[0]) USING lower_bound, upper_bound;
  EXECUTE format('DELETE FROM %I WHERE bucket >= $1 AND bucket < $2', TG_ARGV[1]) USING lower_bound, upper_bound;
  RETURN NULL;
END $$;

-- The counter triggers of one audit partition of 'policy_audits' or 'ruleset_audits'.
CREATE FUNCTION verdict_add_partition_counter_triggers(parent text, partition_name text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  counts text := CASE parent WHEN 'policy_audits' THEN 'policy_audit_counts' ELSE 'ruleset_audit_counts' END;
  failures text := CASE parent WHEN 'policy_audits' THEN 'policy_rule_failure_counts' ELSE 'ruleset_rule_failure_counts' END;
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
    counts || '_subtract', partition_name, counts || '_subtract');
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION verdict_clear_audit_day_counters(%L, %L)',
    counts || '_clear_day', partition_name, counts, failures);
END $$;

CREATE OR REPLACE FUNCTION verdict_ensure_audit_partition(day date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(day, 'YYYYMMDD');
  lower_bound timestamptz := day::timestamp AT TIME ZONE 'UTC';
  upper_bound timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
  parent text;
  created boolean := false;
BEGIN
  IF to_regclass('policy_audits_p' || suffix) IS NOT NULL
     AND to_regclass('ruleset_audits_p' || suffix) IS NOT NULL
     AND to_regclass('audit_inputs_p' || suffix) IS NOT NULL THEN
    RETURN false;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('verdict_audit_partitions'));
  FOREACH parent IN ARRAY ARRAY['policy_audits', 'ruleset_audits', 'audit_inputs'] LOOP
    IF to_regclass(parent || '_p' || suffix) IS NULL THEN
      EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)', parent || '_p' || suffix, parent);
      IF parent <> 'audit_inputs' THEN
        PERFORM verdict_add_partition_counter_triggers(parent, parent || '_p' || suffix);
      END IF;
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, parent || '_p' || suffix, lower_bound, upper_bound);
      created := true;
    END IF;
  END LOOP;
  RETURN created;
END $$;

SELECT verdict_add_partition_counter_triggers(p.relname::text, c.relname::text)
FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid JOIN pg_class p ON p.oid = h.inhparent
WHERE h.inhparent IN ('policy_audits'::regclass, 'ruleset_audits'::regclass);
`
