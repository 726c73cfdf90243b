import { COUNT_SPANS_SECONDS } from './002-audit-counts.js'

/**
 * Bucket lengths of the rule failure counters, longest first: those of the audit counters plus
 * days. A glob's month is otherwise a sum over 720 hours x names x rules (115,000 rows and 70 ms
 * for 20 names of 8 failing rules on two cores); whole days make it 13 ms. Audit counters need no
 * days: they have no rule dimension, and summing their hours is quick.
 */
export const RULE_FAILURE_SPANS_SECONDS = [86_400, ...COUNT_SPANS_SECONDS] as const

/**
 * The rule results of the audit rows in `rows` (a table, a transition table or a subquery,
 * aliased `r`) that count as failures: entries of `output.results` with status fail or error
 * that name their ruleset and rule. An error under failurePolicy Ignore counts too: the rule did
 * not pass, whatever the policy decided. Output that is not shaped as expected yields nothing
 * rather than an error, so no audit is ever refused for it. One definition for the triggers, the
 * back-fill and the queries (src/store/audit-timeseries.ts), fixed with this migration like the
 * spans of 002: changing it needs a new migration that rebuilds the counters.
 */
export function ruleFailuresSql(rows: string, nameColumn: 'policy_name' | 'ruleset_name', where = 'TRUE'): string {
  return `SELECT r.${nameColumn} AS name, r.updated_at, e.result ->> 'ruleset' AS ruleset, e.result ->> 'rule' AS rule
    FROM ${rows} r
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(r.output -> 'results') = 'array' THEN r.output -> 'results' END) AS e(result)
    WHERE (${where}) AND e.result ->> 'status' IN ('fail', 'error') AND e.result ->> 'ruleset' IS NOT NULL AND e.result ->> 'rule' IS NOT NULL`
}

/**
 * What the timeseries routes need, kept the way 002 keeps counts:
 * - `failed` beside `audits` in the counters (rows with passed = false), so a bucket's
 *   total/passed/failed is a sum of counter rows, never a scan of audit rows;
 * - `*_rule_failure_counts`: failures per (name, span, bucket, ruleset, rule), name '' for every
 *   name, so the rules failing most over a range are a sum of a few counter rows too.
 *
 * The trigger functions of 002 are replaced, not added to: one AFTER ... FOR EACH STATEMENT call
 * per write as before, now two upserts from the same transition table. Both upsert in primary
 * key order and always counters first, so concurrent writers lock rows in one order and cannot
 * deadlock. Only fail and error results produce rule counter rows, and one statement of a batch
 * usually falls into one minute, so a write adds one upsert per (name, failing rule, span): none
 * when everything passed. Measured on two cores (PostgreSQL, fsync off, 30% of evaluations
 * failing one or two rules): one evaluation per statement (1 policy + 3 ruleset audits) went from
 * 0.43-0.50 to 0.50-0.59 ms, twenty per statement from 1.95-2.01 to 2.41-2.50 ms (medians).
 * Rows written before this migration are counted once, with writers blocked until it commits.
 */
export function auditTimeseriesSql(table: 'policy_audits' | 'ruleset_audits', nameColumn: 'policy_name' | 'ruleset_name'): string {
  const counts = table.replace('_audits', '_audit_counts')
  const failures = table.replace('_audits', '_rule_failure_counts')
  const spansOf = (list: readonly number[]) => `(VALUES ${list.map((span) => `(${span})`).join(', ')}) AS s(span)`
  const bucket = (time: string) => `date_bin(make_interval(secs => s.span), ${time}, TIMESTAMPTZ '1970-01-01 00:00:00+00')`
  const buckets = (rows: string) => `
    SELECT n.name, s.span, ${bucket('r.updated_at')} AS bucket, r.passed
    FROM ${rows} r
    CROSS JOIN ${spansOf(COUNT_SPANS_SECONDS)}
    CROSS JOIN LATERAL (VALUES (r.${nameColumn}), ('')) AS n(name)`
  const ruleBuckets = (rows: string) => `
    SELECT n.name, s.span, ${bucket('f.updated_at')} AS bucket, f.ruleset, f.rule
    FROM (${ruleFailuresSql(rows, nameColumn)}) AS f
    CROSS JOIN ${spansOf(RULE_FAILURE_SPANS_SECONDS)}
    CROSS JOIN LATERAL (VALUES (f.name), ('')) AS n(name)`
  return `
LOCK TABLE ${table} IN SHARE MODE;

ALTER TABLE ${counts} ADD COLUMN failed bigint NOT NULL DEFAULT 0;
UPDATE ${counts} AS c SET failed = d.failed
FROM (SELECT name, span, bucket, count(*) AS failed FROM (${buckets(`(SELECT * FROM ${table} WHERE NOT passed)`)}) AS b GROUP BY name, span, bucket) AS d
WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket;

CREATE TABLE ${failures} (
  name      text COLLATE "C" NOT NULL,
  span      integer NOT NULL,
  bucket    timestamptz NOT NULL,
  ruleset   text COLLATE "C" NOT NULL,
  rule      text COLLATE "C" NOT NULL,
  failures  bigint NOT NULL,
  PRIMARY KEY (name, span, bucket, ruleset, rule)
);
COMMENT ON TABLE ${failures} IS 'maintained by triggers on ${table}: fail and error results per rule; name '''' counts every name, span is the bucket length in seconds';
-- Globs sum over every name of a few buckets, as on ${counts}.
CREATE INDEX ${failures}_time ON ${failures} (span, bucket);
INSERT INTO ${failures} (name, span, bucket, ruleset, rule, failures)
SELECT name, span, bucket, ruleset, rule, count(*) FROM (${ruleBuckets(table)}) AS b
GROUP BY name, span, bucket, ruleset, rule;

CREATE OR REPLACE FUNCTION ${counts}_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${counts} AS c (name, span, bucket, audits, failed)
  SELECT name, span, bucket, count(*), count(*) FILTER (WHERE NOT passed) FROM (${buckets('new_rows')}) AS b
  GROUP BY name, span, bucket
  ORDER BY name, span, bucket
  ON CONFLICT (name, span, bucket) DO UPDATE SET audits = c.audits + excluded.audits, failed = c.failed + excluded.failed;
  INSERT INTO ${failures} AS c (name, span, bucket, ruleset, rule, failures)
  SELECT name, span, bucket, ruleset, rule, count(*) FROM (${ruleBuckets('new_rows')}) AS b
  GROUP BY name, span, bucket, ruleset, rule
  ORDER BY name, span, bucket, ruleset, rule
  ON CONFLICT (name, span, bucket, ruleset, rule) DO UPDATE SET failures = c.failures + excluded.failures;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ${counts}_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ${counts} AS c SET audits = c.audits - d.audits, failed = c.failed - d.failed
  FROM (SELECT name, span, bucket, count(*) AS audits, count(*) FILTER (WHERE NOT passed) AS failed
        FROM (${buckets('old_rows')}) AS b GROUP BY name, span, bucket) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket;
  DELETE FROM ${counts} AS c
  USING (SELECT DISTINCT name, span, bucket FROM (${buckets('old_rows')}) AS b) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket AND c.audits <= 0;
  UPDATE ${failures} AS c SET failures = c.failures - d.failures
  FROM (SELECT name, span, bucket, ruleset, rule, count(*) AS failures
        FROM (${ruleBuckets('old_rows')}) AS b GROUP BY name, span, bucket, ruleset, rule) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket AND c.ruleset = d.ruleset AND c.rule = d.rule;
  DELETE FROM ${failures} AS c
  USING (SELECT DISTINCT name, span, bucket, ruleset, rule FROM (${ruleBuckets('old_rows')}) AS b) AS d
  WHERE c.name = d.name AND c.span = d.span AND c.bucket = d.bucket AND c.ruleset = d.ruleset AND c.rule = d.rule AND c.failures <= 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ${counts}_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${counts};
  DELETE FROM ${failures};
  RETURN NULL;
END $$;
`
}

export const sql = auditTimeseriesSql('policy_audits', 'policy_name') + auditTimeseriesSql('ruleset_audits', 'ruleset_name')
