/**
 * When each PolicyException last let a rule result through, for the `unused-exception`
 * recommendation. A column of its own, outside the spec and the version: noting an application
 * is not a change of the exception (no version, no NOTIFY), and it goes with the row when the
 * exception is deleted. Written at most once a minute per exception and process
 * (src/services/exception-applications.ts), and only ever forward.
 */
export const sql = `
ALTER TABLE policy_exceptions ADD COLUMN last_applied_at timestamptz;
`
