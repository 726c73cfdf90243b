import { describeLocation, describeObject, isClusterRef } from '../manifests/manifest-object.js'
import { scanFindings, type ScanFinding } from '../scan-findings.js'
import type { ScanReport } from '../scan-result.js'
import { xmlAttribute, xmlText } from './xml-text.js'

/**
 * JUnit XML as Jenkins, GitLab, Azure DevOps and the GitHub test-report actions read it: one
 * testsuite per policy, one testcase per (object, rule) the policy judged, a <failure> for each
 * fail or error, a <skipped> for a rule a PolicyException let through. The policy's action is a
 * suite property, since JUnit has no severity of its own.
 */
export function formatJunit(report: ScanReport): string {
  const findings = scanFindings(report, 'all')
  const byPolicy = new Map<string, ScanFinding[]>(report.policies.map((policy) => [policy.name, []]))
  for (const finding of findings) byPolicy.get(finding.policy)?.push(finding)
  const failures = findings.filter(isFailure).length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="verdict scan" tests="${findings.length}" failures="${failures}" errors="0">`,
  ]
  for (const policy of report.policies) {
    const cases = byPolicy.get(policy.name) ?? []
    const failed = cases.filter(isFailure).length
    const skipped = cases.filter((finding) => finding.status === 'skip').length
    lines.push(`  <testsuite name="${xmlAttribute(policy.name)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="${skipped}">`)
    lines.push('    <properties>', `      <property name="action" value="${policy.action}"/>`, '    </properties>')
    for (const finding of cases) lines.push(...testcase(finding))
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return lines.join('\n')
}

function testcase(finding: ScanFinding): string[] {
  const { object } = finding
  const attributes = [
    `name="${xmlAttribute(`${describeObject(object)} ${finding.ruleset}/${finding.rule}`)}"`,
    `classname="${xmlAttribute(`${finding.policy}.${finding.ruleset}`)}"`,
    `file="${xmlAttribute(object.file)}"`,
    // An object listed from a cluster has no line: its file names the cluster.
    ...(isClusterRef(object) ? [] : [`line="${object.line}"`]),
  ].join(' ')
  if (finding.status === 'pass') return [`    <testcase ${attributes}/>`]
  if (finding.status === 'skip') return [`    <testcase ${attributes}>`, `      <skipped message="${xmlAttribute(finding.message)}"/>`, '    </testcase>']
  const detail = [
    `${describeObject(object)} at ${describeLocation(object)}`,
    `policy ${finding.policy} (${finding.action}), rule ${finding.ruleset}/${finding.rule}, severity ${finding.severity}, ${finding.status}`,
    ...(finding.path === undefined ? [] : [`field ${finding.path}`]),
    finding.message,
  ].join('\n')
  return [
    `    <testcase ${attributes}>`,
    `      <failure message="${xmlAttribute(finding.message)}" type="${finding.status}">${xmlText(detail)}</failure>`,
    '    </testcase>',
  ]
}

function isFailure(finding: ScanFinding): boolean {
  return finding.status === 'fail' || finding.status === 'error'
}
