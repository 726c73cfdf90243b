import { compileRuleset, evaluateRuleset, PreparedInput, type RuleResult, type RulesetSpec } from '../../engine/index.js'
import type { RuleTemplate } from '../catalog/index.js'
import type { TemplatedRule } from '../compile-instruction.js'
import { judgesKind } from '../text/kinds.js'
import { baseGenericDocument, baseKubernetesDocument, baseTerraformPlan } from './base-documents.js'

type Json = Record<string, unknown>


export interface LabelledSample {
  /** 'compliant' documents pass the ruleset; 'non-compliant' ones fail exactly the rule named. */
  label: 'compliant' | 'non-compliant'
  kind: string
  description: string
  /** The rule a non-compliant sample breaks. */
  rule?: string
  document: Json
  /** How the compiled ruleset judged it: what the label promises, checked. */
  passed: boolean
  failedRules: string[]
}

/** The document kind a template's samples use, given the kinds its clause named. */
export function sampleKindFor(template: RuleTemplate, kinds: readonly string[]): string {
  if (template.platform === 'generic') return 'json'
  if (template.platform === 'terraform') return kinds.find((kind) => template.kinds.includes(kind)) ?? template.kinds[0] ?? 'aws_s3_bucket'
  const named = kinds.find((kind) => judgesKind(template.kinds, kind) && baseKubernetesDocument(kind) !== undefined)
  if (named) return named
  const own = template.kinds.find((kind) => kind !== '*' && baseKubernetesDocument(kind) !== undefined)
  return own ?? 'Deployment'
}

function baseDocument(template: RuleTemplate, kind: string): Json {
  if (template.platform === 'generic') return baseGenericDocument()
  if (template.platform === 'terraform') return baseTerraformPlan(kind)
  const document = baseKubernetesDocument(kind)
  if (!document) throw new Error(`no sample document for kind ${kind}`)
  return document
}

/**
 * Compliant and non-compliant documents for a compiled instruction: per document kind, one
 * compliant document (every rule's good edits applied) and, per rule, one document for each of
 * its bad edits. Every sample is judged by the compiled ruleset and carries the verdict; a
 * sample whose verdict contradicts its label is dropped and reported in `unverified`.
 */
export function instructionSamples(
  name: string,
  spec: RulesetSpec,
  rules: readonly TemplatedRule[],
  /** The kind asked for: used for every rule that judges it. */
  preferredKind?: string,
): { samples: LabelledSample[]; unverified: string[] } {
  const compiled = compileRuleset({ ...spec, name })
  const judge = (document: Json): { passed: boolean; failedRules: string[] } => {
    const result = evaluateRuleset(compiled, new PreparedInput({ object: document }))
    return { passed: result.passed, failedRules: [...new Set(result.results.map((entry: RuleResult) => entry.rule))] }
  }
  const byKind = new Map<string, TemplatedRule[]>()
  for (const rule of rules) {
    const kind = sampleKindFor(rule.template, preferredKind === undefined ? rule.kinds : [preferredKind, ...rule.kinds])
    byKind.set(kind, [...(byKind.get(kind) ?? []), rule])
  }
  const samples: LabelledSample[] = []
  const unverified: string[] = []
  for (const [kind, kindRules] of byKind) {
    const first = kindRules[0]
    if (!first) continue
    const compliant = (): Json => {
      const document = baseDocument(first.template, kind)
      for (const rule of kindRules) for (const edit of rule.template.samples(rule.parameters).good) edit(document)
      return document
    }
    const good = compliant()
    const verdict = judge(good)
    if (verdict.passed) samples.push({ label: 'compliant', kind, description: `a ${kind} that follows every rule`, document: good, ...verdict })
    else unverified.push(`the compliant ${kind} sample failed ${verdict.failedRules.join(', ')}`)
    for (const rule of kindRules) {
      for (const bad of rule.template.samples(rule.parameters).bad) {
        const document = compliant()
        bad.edit(document)
        const badVerdict = judge(document)
        if (!badVerdict.passed && badVerdict.failedRules.includes(rule.rule)) {
          samples.push({ label: 'non-compliant', kind, description: bad.description, rule: rule.rule, document, ...badVerdict })
        } else {
          unverified.push(`the non-compliant ${kind} sample "${bad.description}" did not fail ${rule.rule}`)
        }
      }
    }
  }
  return { samples, unverified }
}
