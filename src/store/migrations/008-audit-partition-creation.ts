/**
 * A day's audit partitions are made without stopping writers. `CREATE TABLE ... PARTITION OF`
 * (migration 007) locks the partitioned table ACCESS EXCLUSIVE until its transaction ends, so
 * every write into any day waited behind the creation of the next. A day is now made as a table
 * of its own (LIKE the parent: columns, defaults, NOT NULL and CHECK constraints, storage and
 * compression) and then attached, which locks the parent only SHARE UPDATE EXCLUSIVE: inserts
 * and reads go on. Attaching creates the partition's indexes (it is empty) and checks its rows
 * against the day's bounds (there are none).
 */
export const sql = `
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
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, parent || '_p' || suffix, lower_bound, upper_bound);
      created := true;
    END IF;
  END LOOP;
  RETURN created;
END $$;
`
