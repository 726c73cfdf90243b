import { createHash } from 'node:crypto'
import type { PolicyAction } from '../../engine/index.js'
import { describeObject, isClusterRef, type ObjectRef } from '../manifests/manifest-object.js'
import { STDIN_FILE } from '../manifests/read-manifests.js'
import { scanFindings, type ScanFinding } from '../scan-findings.js'
import type { ScanPolicy, ScanReport, ScanRule } from '../scan-result.js'
import { artifactUri } from './artifact-uri.js'

export interface SarifOptions {
  /** The directory artifact URIs are relative to: the repository root in CI. */
  cwd: string
  toolVersion: string
}

type SarifLevel = 'error' | 'warning' | 'note'

/** What an action means in a code-scanning UI: Deny blocks, Warn warns, Audit only notes. */
const LEVELS: Record<PolicyAction, SarifLevel> = { Deny: 'error', Warn: 'warning', Audit: 'note' }

/**
 * SARIF 2.1.0 with one run of the "verdict" driver. Its rules are the policies' rules, each under
 * the id `<policy>/<ruleset>/<rule>` (a ruleset applied by two policies is two rules, since the
 * action and so the level differ); each fail or error is a result located at its object's line,
 * or, for an object listed from a cluster, which has no file, at its resource alone (a logical
 * location `<apiVersion>/<Kind>/<namespace>/<name>`).
 * The level comes from the action alone: rules carry no `security-severity`, which GitHub would
 * show in its place.
 */
export function formatSarif(report: ScanReport, options: SarifOptions): string {
  const rules = report.policies.flatMap((policy) => policy.rules.map((rule) => ({ policy, rule })))
  const ruleIndex = new Map(rules.map((entry, index) => [ruleId(entry.policy.name, entry.rule.ruleset, entry.rule.rule), index]))
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'verdict',
            version: options.toolVersion,
            rules: rules.map((entry) => sarifRule(entry.policy, entry.rule)),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: scanFindings(report).map((finding) => sarifResult(finding, ruleIndex, options)),
      },
    ],
  }
  return JSON.stringify(log, null, 2)
}

function ruleId(policy: string, ruleset: string, rule: string): string {
  return `${policy}/${ruleset}/${rule}`
}

function sarifRule(policy: ScanPolicy, rule: ScanRule): Record<string, unknown> {
  const id = ruleId(policy.name, rule.ruleset, rule.rule)
  const description = rule.description ?? `${rule.ruleset}/${rule.rule}, applied by policy ${policy.name} (${policy.action})`
  return {
    id,
    name: rule.rule,
    shortDescription: { text: `${rule.ruleset}/${rule.rule}` },
    fullDescription: { text: description },
    ...(rule.remediation === undefined ? {} : { help: { text: rule.remediation } }),
    defaultConfiguration: { level: LEVELS[policy.action] },
    properties: {
      policy: policy.name,
      action: policy.action,
      ruleset: rule.ruleset,
      severity: rule.severity,
      tags: ['kubernetes', 'verdict'],
    },
  }
}

function sarifResult(finding: ScanFinding, ruleIndex: Map<string, number>, options: SarifOptions): Record<string, unknown> {
  const { object } = finding
  const id = ruleId(finding.policy, finding.ruleset, finding.rule)
  const index = ruleIndex.get(id)
  const resource = describeObject(object)
  return {
    ruleId: id,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: LEVELS[finding.action],
    message: { text: `${resource}: ${finding.status === 'error' ? `the rule could not be evaluated: ${finding.message}` : finding.message}` },
    locations: [sarifLocation(object, options)],
    // Lines move when a file is edited; the object and the rule say which alert this is again.
    partialFingerprints: { 'verdictObjectRule/v1': fingerprint(`${object.apiVersion}|${resource}|${id}`) },
    // A rule a PolicyException let through, or one switched off, is a suppressed result: code scanning shows it dismissed, saying why.
    ...(finding.exception === undefined && finding.disabledReason === undefined ? {} : { suppressions: [{ kind: 'external', status: 'accepted', justification: finding.message }] }),
    properties: {
      status: finding.status,
      severity: finding.severity,
      ...(finding.path === undefined ? {} : { path: finding.path }),
      ...(finding.exception === undefined ? {} : { exception: finding.exception }),
      ...(finding.disabledReason === undefined ? {} : { disabled: true, disabledReason: finding.disabledReason }),
      ...(isClusterRef(object) || object.template === undefined ? {} : { template: object.template }),
    },
  }
}

function sarifLocation(object: ObjectRef, options: SarifOptions): Record<string, unknown> {
  const name = object.name ?? '(unnamed)'
  if (isClusterRef(object)) {
    const path = [object.apiVersion, object.kind, ...(object.namespace === null ? [] : [object.namespace]), name].join('/')
    return { logicalLocations: [{ name, fullyQualifiedName: path, kind: 'resource' }] }
  }
  return {
    physicalLocation: {
      artifactLocation: { uri: artifactUri(object.file, options.cwd, STDIN_FILE) },
      region: { startLine: object.line },
    },
    logicalLocations: [{ name, fullyQualifiedName: describeObject(object), kind: 'resource' }],
  }
}

function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}
