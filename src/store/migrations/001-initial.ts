/**
 * The first schema. Choices that are not obvious from the SQL:
 * - Names are `COLLATE "C"`: Kubernetes names are ASCII, byte order is what `ORDER BY name` should
 *   give on every server whatever its locale, and a C-collated btree serves `LIKE 'prefix%'`
 *   (audit name globs) without a text_pattern_ops twin.
 * - Times default to now() cut to milliseconds: the API shows milliseconds, and a record must be
 *   found by the very timestamp it displays.
 * - Audit tables carry three btrees besides the primary key: (name, updated_at desc, id desc) for
 *   the per-name routes (index-only count and ordered pages), (updated_at desc, id desc) for the
 *   list-all routes and retention, and request_id for lookups. id breaks ties between rows written
 *   in one transaction (same now()). `passed` is a column so counts of failures need no jsonb.
 * - specs and outputs are jsonb; labels are their own column with a GIN index for `@>` filters.
 */
export const sql = `
CREATE TABLE rulesets (
  name        text COLLATE "C" PRIMARY KEY,
  labels      jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec        jsonb NOT NULL,
  source      text NOT NULL CHECK (source IN ('api', 'crd', 'instruction')),
  version     integer NOT NULL CHECK (version >= 1),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by  text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by  text NOT NULL
);
CREATE INDEX rulesets_labels ON rulesets USING gin (labels jsonb_path_ops);

CREATE TABLE policies (
  name        text COLLATE "C" PRIMARY KEY,
  labels      jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec        jsonb NOT NULL,
  source      text NOT NULL CHECK (source IN ('api', 'crd', 'instruction')),
  version     integer NOT NULL CHECK (version >= 1),
  created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by  text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by  text NOT NULL
);
CREATE INDEX policies_labels ON policies USING gin (labels jsonb_path_ops);
-- Deleting a ruleset asks which policies name it: spec->'rulesets' ? name.
CREATE INDEX policies_rulesets ON policies USING gin ((spec -> 'rulesets'));

CREATE TABLE api_tokens (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  owner         text NOT NULL,
  scopes        text[] NOT NULL,
  secret_hash   text NOT NULL UNIQUE,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at    timestamptz,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);

CREATE TABLE policy_audits (
  id            bigserial PRIMARY KEY,
  request_id    text NOT NULL,
  policy_name   text COLLATE "C" NOT NULL,
  input         text NOT NULL,
  input_format  text NOT NULL CHECK (input_format IN ('json', 'yaml')),
  output        jsonb NOT NULL,
  passed        boolean NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by    text NOT NULL
);
CREATE INDEX policy_audits_name_time ON policy_audits (policy_name, updated_at DESC, id DESC);
CREATE INDEX policy_audits_time ON policy_audits (updated_at DESC, id DESC);
CREATE INDEX policy_audits_request ON policy_audits (request_id);

CREATE TABLE ruleset_audits (
  id            bigserial PRIMARY KEY,
  request_id    text NOT NULL,
  ruleset_name  text COLLATE "C" NOT NULL,
  input         text NOT NULL,
  input_format  text NOT NULL CHECK (input_format IN ('json', 'yaml')),
  output        jsonb NOT NULL,
  passed        boolean NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_by    text NOT NULL
);
CREATE INDEX ruleset_audits_name_time ON ruleset_audits (ruleset_name, updated_at DESC, id DESC);
CREATE INDEX ruleset_audits_time ON ruleset_audits (updated_at DESC, id DESC);
CREATE INDEX ruleset_audits_request ON ruleset_audits (request_id);
`
