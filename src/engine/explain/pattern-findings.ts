import { fromCelValue } from '../cel/values.js'
import { describeRequirement, type PatternField } from '../pattern/index.js'
import { formatPath, isReadable, type FieldFinding } from './field-finding.js'

/**
 * The fields a failed pattern rule names, as findings: where (already in the submitted document),
 * what was found, and what the pattern asks. Unlike CEL there is nothing to trace: the matcher
 * stops at the field it reports.
 */
export function patternFindings(fields: readonly PatternField[]): FieldFinding[] {
  const seen = new Set<string>()
  const findings: FieldFinding[] = []
  for (const field of fields) {
    const actual = field.actual === undefined ? undefined : fromCelValue(field.actual)
    const { requirement, expected } = describeRequirement(field.requirement, actual)
    const finding: FieldFinding = { path: formatPath(field.path), requirement }
    if (actual !== undefined && isReadable(actual)) finding.actual = actual
    if (expected !== undefined) finding.expected = expected
    const key = `${finding.path}\u0000${finding.requirement}`
    if (seen.has(key)) continue
    seen.add(key)
    findings.push(finding)
  }
  return findings
}
