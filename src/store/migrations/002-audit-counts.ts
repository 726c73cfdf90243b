/**
 * The bucket lengths the counters are built with, longest first. Fixed with this migration: a
 * different set needs a new migration that rebuilds the counters.
 */
export const COUNT_SPANS_SECONDS = [3600, 60] as const

/**
 * Audit counts that stay fast past a million rows. Counting index entries is linear: on two
 * cores, 1,000,000 rows took 70-95 ms and the busiest of 20 policies (223,000 rows) 33 ms even
 * with an all-visible table, and freshly written pages need heap visits on top. So a trigger
 * keeps per-name counters in hour and minute buckets (name '' counts every name), and a count
 * adds up whole hours, then whole minutes at the two ragged ends, and counts only the rows of
 * the partial minutes at the very edges from the index: a few thousand small rows at most,
 * however long the range.
 *
 * The triggers run inside the writing transaction, so counters and rows always agree. They
 * upsert in (name, span, bucket) order, so concurrent writers lock counter rows in the same
 * order and cannot deadlock. Audits become immutable (UPDATE raises): an audit trail is not
 * edited, and the counters could not follow an edit. Deleting (retention) and TRUNCATE keep
 * the counters right.
 */
export function auditCountsSql(table: 'policy_audits' | 'ruleset_audits', nameColumn: 'policy_name' | 'ruleset_name'): string {
  const counts = table.replace('_audits', '_audit_counts')
  const spans = COUNT_SPANS_SECONDS.map((span) => `(${span})`).join(', ')
  const buckets = (rows: string) => `
    SELECT n.name, s.span, date_bin(make_interval(secs => s.span), r.updated_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket
    FROM ${rows} r
    CROSS JOIN (VALUES ${spans}) AS s(span)
    CROSS JOIN LATERAL (VALUES (r.${nameColumn}), ('')) AS n(name)`
  return `
ALTER TABLE ${table} ADD CONSTRAINT ${table}_name_not_empty CHECK (${nameColumn} <> '');

CREATE TABLE ${counts} (
  name    text COLLATE "C" NOT NULL,
  span    integer NOT NULL,
  bucket  timestamptz NOT NULL,
  audits  bigint NOT NULL,
  PRIMARY KEY (name, span, bucket)
);
COMMENT ON TABLE ${counts} IS 'maintained by triggers on ${table}; name '''' counts every name, span is the bucket length in seconds';
-- Globs count over every name of a few buckets.
CREATE INDEX ${counts}_time ON ${counts} (span, bucket);

CREATE FUNCTION ${counts}_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${counts} AS c (name, span, bucket, audits)
  SELECT name, span, bucket, count(*) FROM (${buckets('new_rows')}) AS b
  GROUP BY name, span, bucket
  ORDER BY name, span, bucket
  ON CONFLICT (name, span, bucket) DO UPDATE SET audits = c.audits + excluded.audits;
  RETURN NULL;
END $$;

CREATE FUNCTION ${counts}_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ${counts} AS c SET audits = c.audits - d.audits
  FROM (SELECT name, span, bucket, count(*) AS audits FROM (${buckets('old_rows')}) AS b GROUP BY name, span, bucket) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket;
  DELETE FROM ${counts} AS c
  USING (SELECT DISTINCT name, span, bucket FROM (${buckets('old_rows')}) AS b) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket AND c.audits <= 0;
  RETURN NULL;
END $$;

CREATE FUNCTION ${counts}_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${counts};
  RETURN NULL;
END $$;

CREATE FUNCTION ${table}_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit records cannot be changed, only deleted' USING ERRCODE = 'object_not_in_prerequisite_state';
END $$;

-- Rows written before this migration: block writers until it commits, then count them once.
LOCK TABLE ${table} IN SHARE MODE;
CREATE TRIGGER ${counts}_add AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${counts}_add();
CREATE TRIGGER ${counts}_subtract AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${counts}_subtract();
CREATE TRIGGER ${counts}_clear AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${counts}_clear();
CREATE TRIGGER ${table}_immutable BEFORE UPDATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_immutable();
INSERT INTO ${counts} (name, span, bucket, audits)
SELECT name, span, bucket, count(*) FROM (${buckets(table)}) AS b
GROUP BY name, span, bucket;
`
}

export const sql = auditCountsSql('policy_audits', 'policy_name') + auditCountsSql('ruleset_audits', 'ruleset_name')
