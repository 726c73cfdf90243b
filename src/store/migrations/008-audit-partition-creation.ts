/**
 * How a day's audit partitions are made, two changes to verdict_ensure_audit_partition (007):
 *
 * - Made without stopping writers. `CREATE TABLE ... PARTITION OF` locks the partitioned table
 *   ACCESS EXCLUSIVE until its transaction ends, so every write into any day waited behind the
 *   creation of the next (bench:api saw 100-150 ms stalls when the leader's pass fell in a run).
 *   A day is now made as a table of its own (LIKE the parent: columns, defaults, NOT NULL and
 *   CHECK constraints, storage) and then attached, which locks the parent only SHARE UPDATE
 *   EXCLUSIVE: inserts and reads go on. Attaching creates the partition's indexes (it is empty)
 *   and checks its rows against the day's bounds (there are none).
 * - Rows up to a page are stored uncompressed on a server without lz4. A row over about 2 KB
 *   (TOAST_TUPLE_THRESHOLD) has its largest values compressed until it fits `toast_tuple_target`,
 *   2 KB unless the table says otherwise. A Pod of 2.7 KB, the input of a typical evaluation,
 *   passes that threshold; where lz4 is missing (007 sets it where the server has it; PGlite and
 *   the embedded PostgreSQL have not), pglz compressed it, which was 13 µs of PostgreSQL's 85 per
 *   durable evaluation, to save a kilobyte (1.6:1 on that Pod). With the target at a page (block
 *   size less the page and item headers), rows that fit a page are stored as they are; larger
 *   ones are still compressed and moved out of line as before. Where lz4 is set, compressing
 *   costs little and saves space, so those tables keep the default. The target is a storage
 *   parameter of each partition, not of the parent: set on the days made from now on, and by
 *   this migration on the days that exist.
 */
export const sql = `
-- Sets the page-sized toast target on one partition of an audit table, unless its parent
-- compresses 'input' with lz4. Only affects rows written from now on.
CREATE FUNCTION verdict_set_audit_partition_storage(partition regclass, parent regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT attcompression FROM pg_attribute WHERE attrelid = parent AND attname = 'input') IS DISTINCT FROM 'l' THEN
    EXECUTE format('ALTER TABLE %s SET (toast_tuple_target = %s)', partition, current_setting('block_size')::int - 32);
  END IF;
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
      PERFORM verdict_set_audit_partition_storage(to_regclass(parent || '_p' || suffix), parent::regclass);
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, parent || '_p' || suffix, lower_bound, upper_bound);
      created := true;
    END IF;
  END LOOP;
  RETURN created;
END $$;

SELECT verdict_set_audit_partition_storage(h.inhrelid, h.inhparent)
FROM pg_inherits h
WHERE h.inhparent IN ('policy_audits'::regclass, 'ruleset_audits'::regclass, 'audit_inputs'::regclass);
`
