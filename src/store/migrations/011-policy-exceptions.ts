/**
 * PolicyExceptions, shaped as rulesets and policies are (definitions-table.ts): name, labels, the
 * spec as jsonb, source, version and the stamp. Which exceptions are active is decided against
 * the evaluating process's clock at evaluation time, never by a column: an exception stops at
 * `expiresAt` in every path at once, with nothing in the store to update. Listing by policy or
 * ruleset matches globs in the spec, done in the service over the rows (few per cluster).
 */
export const sql = `
CREATE TABLE policy_exceptions (
  name        text COLLATE "C" PRIMARY KEY,
  labels      jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec        jsonb NOT NULL,
  source      text NOT NULL CHECK (source IN ('api', 'crd')),
  version     integer NOT NULL CHECK (version >= 1),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by  text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by  text NOT NULL
);
CREATE INDEX policy_exceptions_labels ON policy_exceptions USING gin (labels jsonb_path_ops);
`
