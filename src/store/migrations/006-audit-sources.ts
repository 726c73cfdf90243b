/**
 * Where an audit came from: `admission` (the webhook), `api` (REST evaluation) or `background`
 * (a scan of what already runs). Earlier records were written by the REST API or the webhook,
 * which nothing told apart: they read as `api`. ADD COLUMN with a constant default rewrites no
 * row.
 *
 * background_verdicts holds, per scanned policy and object, a digest of the verdict the last scan
 * gave, so a scan records an audit only where the verdict changed: on a stable cluster the audit
 * tables do not grow with the scan interval, and this table holds one row per (policy, object),
 * whatever the number of scans. `seen_at` lets a complete scan forget objects that are gone;
 * `passed` and `failures` (failing rules) answer "what in the cluster fails this policy" for
 * recommendations without reading audits.
 */
export const sql = `
ALTER TABLE policy_audits ADD COLUMN source text NOT NULL DEFAULT 'api' CHECK (source IN ('admission', 'api', 'background'));
ALTER TABLE ruleset_audits ADD COLUMN source text NOT NULL DEFAULT 'api' CHECK (source IN ('admission', 'api', 'background'));

CREATE TABLE background_verdicts (
  policy_name  text COLLATE "C" NOT NULL,
  object_key   text COLLATE "C" NOT NULL,
  digest       text NOT NULL,
  passed       boolean NOT NULL,
  failures     integer NOT NULL,
  seen_at      timestamptz NOT NULL,
  PRIMARY KEY (policy_name, object_key)
);
CREATE INDEX background_verdicts_seen ON background_verdicts (seen_at);
`
