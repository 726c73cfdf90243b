/**
 * Audits partitioned by day, so ten million of them stay cheap to keep and to forget:
 *
 * - policy_audits, ruleset_audits and audit_inputs are range-partitioned on their time (UTC days,
 *   one partition per table per day, named `<table>_pYYYYMMDD`). Retention drops whole days
 *   (verdict_drop_audit_partitions_before): no DELETE walking millions of rows, no dead tuples
 *   for vacuum, no index bloat. The counters of a dropped day go with it: every counter bucket
 *   (a minute, an hour, a UTC day, aligned on the epoch) lies inside one day.
 * - verdict_ensure_audit_partition(day) creates a day's three partitions when missing. The leader
 *   calls it for the days ahead; a writer calls it for the days of its rows before it writes
 *   (a spool replayed after midnight, a clock that ran ahead). No DEFAULT partition: creating a
 *   partition next to one would have to scan it.
 * - An audit row's primary key is (updated_at, id): the partition key has to be in it, and it
 *   serves the list-all order (updated_at DESC, id DESC) too, which took a separate index before.
 * - audit_inputs is keyed (request_id, stored_at), stored_at being the time of the audit rows that
 *   share the input (NULL input column): an input lives in the same day as its rows and is
 *   dropped with them, and a row finds its input by request id and its own updated_at.
 * - The writer now adds to the counters itself, once per batch (src/store/audit-counters.ts),
 *   in the statement that inserts the rows, instead of an AFTER INSERT trigger building them
 *   from a transition table of whole rows. DELETE and TRUNCATE keep their triggers.
 * - Input and output text is compressed with lz4 where the server was built with it (pglz, the
 *   default, took an eighth of PostgreSQL's CPU time per durable evaluation).
 *
 * The existing store moves over in this transaction: every row keeps its id and time, every
 * shared input is copied to the day of the rows that use it, and the counters stay as they were.
 */
const AUDIT_TABLES = [
  { table: 'policy_audits', nameColumn: 'policy_name', counts: 'policy_audit_counts' },
  { table: 'ruleset_audits', nameColumn: 'ruleset_name', counts: 'ruleset_audit_counts' },
] as const

function auditTableSql(table: string, nameColumn: string): string {
  return `
LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE;
ALTER TABLE ${table} RENAME TO ${table}_before_007;
ALTER TABLE ${table}_before_007 RENAME CONSTRAINT ${table}_pkey TO ${table}_before_007_pkey;
ALTER SEQUENCE ${table}_id_seq OWNED BY NONE;
ALTER TABLE ${table}_before_007 ALTER COLUMN id DROP DEFAULT;
DROP INDEX ${table}_name_time, ${table}_time, ${table}_request;

CREATE TABLE ${table} (
  id            bigint NOT NULL DEFAULT nextval('${table}_id_seq'),
  request_id    text NOT NULL,
  ${nameColumn}  text COLLATE "C" NOT NULL CONSTRAINT ${table}_name_not_empty CHECK (${nameColumn} <> ''),
  input         text,
  input_format  text NOT NULL CHECK (input_format IN ('json', 'yaml')),
  output        jsonb NOT NULL,
  passed        boolean NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by    text NOT NULL,
  source        text NOT NULL DEFAULT 'api' CHECK (source IN ('admission', 'api', 'background')),
  PRIMARY KEY (updated_at, id)
) PARTITION BY RANGE (updated_at);
ALTER SEQUENCE ${table}_id_seq OWNED BY ${table}.id;
CREATE INDEX ${table}_name_time ON ${table} (${nameColumn}, updated_at DESC, id DESC);
CREATE INDEX ${table}_request ON ${table} (request_id);
`
}

function auditTableTriggersSql(table: string, counts: string): string {
  return `
CREATE TRIGGER ${counts}_subtract AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${counts}_subtract();
CREATE TRIGGER ${counts}_clear AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${counts}_clear();
CREATE TRIGGER ${table}_immutable BEFORE UPDATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_immutable();
DROP FUNCTION ${counts}_add();
`
}

export const sql = `
${AUDIT_TABLES.map(({ table, nameColumn }) => auditTableSql(table, nameColumn)).join('')}
DROP INDEX policy_audits_failed_name_time, ruleset_audits_failed_time;
CREATE INDEX policy_audits_failed_name_time ON policy_audits (policy_name, updated_at DESC) WHERE NOT passed;
CREATE INDEX ruleset_audits_failed_time ON ruleset_audits (updated_at DESC, id DESC) WHERE NOT passed;

LOCK TABLE audit_inputs IN ACCESS EXCLUSIVE MODE;
ALTER TABLE audit_inputs RENAME TO audit_inputs_before_007;
ALTER TABLE audit_inputs_before_007 RENAME CONSTRAINT audit_inputs_pkey TO audit_inputs_before_007_pkey;
DROP INDEX audit_inputs_stored_at;
CREATE TABLE audit_inputs (
  request_id    text NOT NULL,
  stored_at     timestamptz NOT NULL,
  input         text NOT NULL,
  input_format  text NOT NULL CHECK (input_format IN ('json', 'yaml')),
  PRIMARY KEY (request_id, stored_at)
) PARTITION BY RANGE (stored_at);

DO $$
BEGIN
  ALTER TABLE policy_audits ALTER COLUMN input SET COMPRESSION lz4;
  ALTER TABLE policy_audits ALTER COLUMN output SET COMPRESSION lz4;
  ALTER TABLE ruleset_audits ALTER COLUMN input SET COMPRESSION lz4;
  ALTER TABLE ruleset_audits ALTER COLUMN output SET COMPRESSION lz4;
  ALTER TABLE audit_inputs ALTER COLUMN input SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  -- A server built without lz4 keeps its default compression.
  NULL;
END $$;

CREATE FUNCTION verdict_audit_partition_day(partition_name text) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN partition_name ~ '_p[0-9]{8}$' THEN to_date(right(partition_name, 8), 'YYYYMMDD') END
$$;

-- Returns true when it created anything. The advisory lock is taken only when a partition is
-- missing, so writers that find their day in place never wait on each other.
CREATE FUNCTION verdict_ensure_audit_partition(day date) RETURNS boolean LANGUAGE plpgsql AS $$
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
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', parent || '_p' || suffix, parent, lower_bound, upper_bound);
      created := true;
    END IF;
  END LOOP;
  RETURN created;
END $$;

-- Drops every day that ended at or before the cutoff, with its counters; returns the days dropped.
CREATE FUNCTION verdict_drop_audit_partitions_before(cutoff timestamptz) RETURNS SETOF date LANGUAGE plpgsql AS $$
DECLARE
  day date;
  lower_bound timestamptz;
  upper_bound timestamptz;
  parent text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('verdict_audit_partitions'));
  FOR day IN
    SELECT DISTINCT verdict_audit_partition_day(c.relname::text) AS d
    FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
    WHERE h.inhparent IN ('policy_audits'::regclass, 'ruleset_audits'::regclass, 'audit_inputs'::regclass)
      AND verdict_audit_partition_day(c.relname::text) IS NOT NULL
    ORDER BY 1
  LOOP
    lower_bound := day::timestamp AT TIME ZONE 'UTC';
    upper_bound := (day + 1)::timestamp AT TIME ZONE 'UTC';
    CONTINUE WHEN upper_bound > cutoff;
    DELETE FROM policy_audit_counts WHERE span IN (60, 3600) AND bucket >= lower_bound AND bucket < upper_bound;
    DELETE FROM ruleset_audit_counts WHERE span IN (60, 3600) AND bucket >= lower_bound AND bucket < upper_bound;
    DELETE FROM policy_rule_failure_counts WHERE span IN (60, 3600, 86400) AND bucket >= lower_bound AND bucket < upper_bound;
    DELETE FROM ruleset_rule_failure_counts WHERE span IN (60, 3600, 86400) AND bucket >= lower_bound AND bucket < upper_bound;
    FOREACH parent IN ARRAY ARRAY['policy_audits', 'ruleset_audits', 'audit_inputs'] LOOP
      EXECUTE format('DROP TABLE IF EXISTS %I', parent || '_p' || to_char(day, 'YYYYMMDD'));
    END LOOP;
    RETURN NEXT day;
  END LOOP;
END $$;

-- A partition for every day the existing store holds, and for today.
SELECT verdict_ensure_audit_partition(d) FROM (
  SELECT (updated_at AT TIME ZONE 'UTC')::date AS d FROM policy_audits_before_007
  UNION SELECT (updated_at AT TIME ZONE 'UTC')::date FROM ruleset_audits_before_007
  UNION SELECT (now() AT TIME ZONE 'UTC')::date
) AS days ORDER BY d;

INSERT INTO policy_audits (id, request_id, policy_name, input, input_format, output, passed, updated_at, updated_by, source)
SELECT id, request_id, policy_name, input, input_format, output, passed, updated_at, updated_by, source FROM policy_audits_before_007 ORDER BY id;
INSERT INTO ruleset_audits (id, request_id, ruleset_name, input, input_format, output, passed, updated_at, updated_by, source)
SELECT id, request_id, ruleset_name, input, input_format, output, passed, updated_at, updated_by, source FROM ruleset_audits_before_007 ORDER BY id;
INSERT INTO audit_inputs (request_id, stored_at, input, input_format)
SELECT a.request_id, a.updated_at, i.input, i.input_format
FROM (SELECT request_id, updated_at FROM policy_audits_before_007 WHERE input IS NULL
      UNION SELECT request_id, updated_at FROM ruleset_audits_before_007 WHERE input IS NULL) AS a
JOIN audit_inputs_before_007 i ON i.request_id = a.request_id;

DROP TABLE policy_audits_before_007, ruleset_audits_before_007, audit_inputs_before_007;
${AUDIT_TABLES.map(({ table, counts }) => auditTableTriggersSql(table, counts)).join('')}
`
