import { CATALOG, type RuleTemplate } from './catalog/index.js'
import { understandInstruction, type ClauseReport, type UnderstoodInstruction } from './compile-instruction.js'
import { suggestTemplates } from './suggest-templates.js'
import { normalizeText } from './text/clause.js'

export interface TemplateHint {
  id: string
  title: string
  platform: string
  category: string
  kinds: string[]
  /** Phrasings that produce this template. */
  examples: string[]
  parameters: Array<{ name: string; question: string; required: boolean; example: unknown }>
  /** Required parameters the instruction has not given yet. */
  missing: string[]
}

export interface RulesetHints {
  instruction: string
  clauses: ClauseReport[]
  /** Templates the instruction matches or comes close to, best first. */
  templates: TemplateHint[]
  /** Labels to send with the instruction: the platform and the resource it is about. */
  suggestedLabels: Record<string, string>
}

function hintOf(template: RuleTemplate, missing: string[] = []): TemplateHint {
  return {
    id: template.id,
    title: template.title,
    platform: template.platform,
    category: template.category,
    kinds: [...template.kinds],
    examples: template.phrasings.slice(0, 3),
    parameters: template.parameters.map((parameter) => ({ name: parameter.name, question: parameter.question, required: parameter.required, example: parameter.example })),
    missing,
  }
}

/**
 * Templates an instruction is heading for, possibly half-typed ("no priv", "images only fr"):
 * the ones its clauses map to (with the parameters still missing), then those whose title or
 * phrasings contain the words typed so far, the last word as a prefix. An empty instruction
 * gets one example per category.
 */
export function rulesetHints(instruction: string, labels: Record<string, string> = {}, catalog: readonly RuleTemplate[] = CATALOG, limit = 8): RulesetHints {
  if (instruction.trim() === '') {
    const perCategory = new Map<string, RuleTemplate>()
    for (const template of catalog) if (!perCategory.has(template.category)) perCategory.set(template.category, template)
    return { instruction, clauses: [], templates: [...perCategory.values()].map((template) => hintOf(template)), suggestedLabels: {} }
  }
  return hintsFromUnderstood(instruction, labels, understandInstruction(instruction, labels, catalog), catalog, limit)
}

function hintsFromUnderstood(instruction: string, labels: Record<string, string>, understood: UnderstoodInstruction, catalog: readonly RuleTemplate[], limit: number): RulesetHints {
  const hints: TemplateHint[] = []
  const seen = new Set<string>()
  const add = (template: RuleTemplate, missing: string[] = []): void => {
    if (seen.has(template.id) || hints.length >= limit) return
    seen.add(template.id)
    hints.push(hintOf(template, missing))
  }
  for (const entry of understood.clauses) {
    const best = entry.recognition.best
    if (best) add(best.template, best.recognition.missing)
    for (const candidate of entry.recognition.ranked) add(candidate.template, candidate.recognition.missing)
  }
  for (const template of prefixMatches(instruction, catalog)) add(template)
  for (const entry of understood.clauses) for (const template of suggestTemplates(entry.clause, catalog, entry.recognition, limit)) add(template)
  const suggestedLabels: Record<string, string> = {}
  const first = hints[0]
  const platform = labels.platform ?? first?.platform
  if (platform) suggestedLabels.platform = platform
  const kinds = understood.clauses.flatMap((entry) => entry.clause.kinds)
  const resource = labels.resource ?? kinds[0] ?? first?.kinds.find((kind) => kind !== '*')
  if (resource) suggestedLabels.resource = resource
  return { instruction, clauses: understood.clauses.map((entry) => entry.report), templates: hints, suggestedLabels }
}

/** Templates whose title or phrasings hold every typed word, the last one as a prefix. */
function prefixMatches(instruction: string, catalog: readonly RuleTemplate[]): RuleTemplate[] {
  const words = normalizeText(instruction).split(/[^a-z0-9:./-]+/).filter((word) => word.length > 1)
  const last = words.pop()
  if (!last) return []
  return catalog.filter((template) => {
    const text = normalizeText([template.title, ...template.phrasings].join(' '))
    const vocabulary = text.split(/[^a-z0-9:./-]+/)
    return words.every((word) => vocabulary.includes(word) || ['no', 'not', 'must', 'the', 'and', 'only', 'all'].includes(word)) && vocabulary.some((word) => word.startsWith(last))
  })
}

export interface PolicyHints {
  instruction: string
  /** Deny for "block/deny/enforce/reject", Warn for "warn", Audit for "audit/report/log/monitor", else Audit. */
  action: 'Deny' | 'Warn' | 'Audit'
  actionReason: string
  /** Stored rulesets that already cover what the instruction asks for. */
  rulesets: Array<{ name: string; reason: string }>
  /** What a policy's match could say, read from the instruction. */
  match: { kinds?: string[]; namespaces?: string[] }
  /** Templates for what no stored ruleset covers yet (create a ruleset from them first). */
  templates: TemplateHint[]
  suggestedLabels: Record<string, string>
}

export interface StoredRulesetSummary {
  name: string
  labels: Record<string, string>
  templateIds: string[]
  ruleNames: string[]
}

/** Hints for a policy: its action, the stored rulesets it could apply, the match it implies. */
export function policyHints(instruction: string, rulesets: readonly StoredRulesetSummary[], catalog: readonly RuleTemplate[] = CATALOG): PolicyHints {
  const text = normalizeText(instruction)
  const action: PolicyHints['action'] = /\b(block|deny|enforce|reject|prevent|forbid|refuse)\b/.test(text)
    ? 'Deny'
    : /\bwarn(ing|s)?\b/.test(text)
      ? 'Warn'
      : 'Audit'
  const actionReason =
    action === 'Deny' ? 'the instruction asks to block what fails' : action === 'Warn' ? 'the instruction asks to warn' : 'nothing asks to block or warn: Audit records failures without affecting anyone'
  const understood = understandInstruction(instruction, {}, catalog)
  const ruleHints = instruction.trim() === '' ? rulesetHints(instruction, {}, catalog) : hintsFromUnderstood(instruction, {}, understood, catalog, 8)
  const wanted = new Set(ruleHints.clauses.flatMap((clause) => (clause.template ? [clause.template] : [])))
  const words = new Set(text.split(/[^a-z0-9-]+/).filter((word) => word.length > 2))
  const matching: PolicyHints['rulesets'] = []
  for (const ruleset of rulesets) {
    const covered = ruleset.templateIds.filter((id) => wanted.has(id))
    if (covered.length > 0) {
      matching.push({ name: ruleset.name, reason: `has rules from ${covered.join(', ')}` })
    } else if (words.has(ruleset.name) || Object.values(ruleset.labels).some((value) => words.has(value.toLowerCase()))) {
      matching.push({ name: ruleset.name, reason: 'its name or labels are named in the instruction' })
    }
  }
  const coveredTemplates = new Set(rulesets.flatMap((ruleset) => ruleset.templateIds))
  const namespaces = [...instruction.matchAll(/\b(?:in|for) (?:the )?(?:namespaces?\s+)?([a-z0-9][-a-z0-9*]*) namespaces?\b|\bnamespaces?\s+([a-z0-9][-a-z0-9*]*(?:\s*,\s*[a-z0-9][-a-z0-9*]*)*)/gi)].flatMap((match) =>
    (match[1] ?? match[2] ?? '').split(/\s*,\s*/).filter((name) => name.length > 0),
  )
  const namedKinds = [...new Set(understood.clauses.flatMap((entry) => (entry.clause.kindsNamed ? entry.clause.kinds : [])))]
  const match: PolicyHints['match'] = {}
  if (namedKinds.length > 0) match.kinds = namedKinds
  if (namespaces.length > 0) match.namespaces = [...new Set(namespaces)]
  return {
    instruction,
    action,
    actionReason,
    rulesets: matching,
    match,
    templates: ruleHints.templates.filter((template) => !coveredTemplates.has(template.id)),
    suggestedLabels: ruleHints.suggestedLabels,
  }
}
