/**
 * Audits cannot be changed through a day's partition or through audit_inputs either.
 *
 * The immutable triggers of migration 002 are statement-level triggers on policy_audits and
 * ruleset_audits. Since migration 007 those are partitioned, and a statement-level trigger of a
 * partitioned table fires only for statements aimed at it: `UPDATE policy_audits_p20261124 ...`
 * changed audits unhindered, and audit_inputs, where most inputs live since 003, had no such
 * trigger at all. Row-level triggers of a partitioned table are cloned to every partition, those
 * that exist and those attached later, so each table now refuses an UPDATE row by row too. The
 * statement-level ones stay: they refuse even an UPDATE that matches no row, as before. Inserts
 * fire neither.
 */
export const sql = `
CREATE FUNCTION audit_inputs_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit records cannot be changed, only deleted' USING ERRCODE = 'object_not_in_prerequisite_state';
END $$;
CREATE TRIGGER audit_inputs_immutable BEFORE UPDATE ON audit_inputs FOR EACH STATEMENT EXECUTE FUNCTION audit_inputs_immutable();
CREATE TRIGGER audit_inputs_immutable_rows BEFORE UPDATE ON audit_inputs FOR EACH ROW EXECUTE FUNCTION audit_inputs_immutable();
CREATE TRIGGER policy_audits_immutable_rows BEFORE UPDATE ON policy_audits FOR EACH ROW EXECUTE FUNCTION policy_audits_immutable();
CREATE TRIGGER ruleset_audits_immutable_rows BEFORE UPDATE ON ruleset_audits FOR EACH ROW EXECUTE FUNCTION ruleset_audits_immutable();
`
