/**
 * The evaluated document once per request instead of once per audit row. A policy evaluation
 * writes a policy audit and one ruleset audit per ruleset, all with the same input: stored in
 * every row, the input (kilobytes, against a few hundred bytes for the rest of a row) was most
 * of what the audit writer wrote, and it was written 1 + rulesets times.
 *
 * An audit row's `input` is NULL when the input is the one `audit_inputs` holds for its request
 * id; it stays inline when a request id arrives again with a different document (a client's own
 * request id may repeat), so no audit ever reads another's input.
 */
export const sql = `
CREATE TABLE audit_inputs (
  request_id    text PRIMARY KEY,
  input         text NOT NULL,
  input_format  text NOT NULL CHECK (input_format IN ('json', 'yaml')),
  stored_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_inputs_stored_at ON audit_inputs (stored_at);

ALTER TABLE policy_audits ALTER COLUMN input DROP NOT NULL;
ALTER TABLE ruleset_audits ALTER COLUMN input DROP NOT NULL;
`
