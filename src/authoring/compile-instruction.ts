import type { Rule, RulesetSpec } from '../engine/index.js'
import { CATALOG, CATALOG_WORDS, VOCABULARY, type Parameters, type Platform, type RuleTemplate } from './catalog/index.js'
import { recognizeClause, type Candidate, type ClauseRecognition } from './recognize-clause.js'
import { normalizeText, prepareClause, type Clause } from './text/clause.js'
import { canonicalKind, kindFromLabel } from './text/kinds.js'
import { isTerraformType } from './text/terraform-types.js'
import { hardClauses, softPieces } from './text/split-clauses.js'
import { suggestTemplates } from './suggest-templates.js'
import { compileUnderstood } from './understand/compile-understood.js'
import type { SentenceReading } from './understand/requirement.js'
import { describeRoles } from './understand/description-roles.js'
import { namedRuleDoubt } from './understand/named-rule-doubts.js'

export { MAX_INSTRUCTION_LENGTH } from './instruction-length.js'

/** How one clause of an instruction was understood. */
export interface ClauseReport {
  text: string
  status: 'mapped' | 'unmapped' | 'ambiguous' | 'missing-parameters'
  /** The template it maps to (mapped, missing-parameters). */
  template?: string
  parameters?: Parameters
  /** Required parameters the clause did not give, with the question to ask. */
  missing?: Array<{ name: string; question: string }>
  /** Templates it might have meant (unmapped, ambiguous): ids, closest first. */
  suggestions?: string[]
  /** The rule it produced (mapped). */
  rule?: string
  /** Why a model could not take it, when one was asked. */
  reason?: string
}

/** One generated rule with the template and parameters it came from, and the kinds its clause named. */
export interface TemplatedRule {
  rule: string
  template: RuleTemplate
  parameters: Parameters
  kinds: readonly string[]
}

export interface CompiledInstruction {
  spec: RulesetSpec
  clauses: ClauseReport[]
  /** Rules that came from catalog templates (the samples know how to build documents for them). */
  rules: TemplatedRule[]
  /** Every sentence with its role and what it became. */
  sentences: SentenceReading[]
}

/**
 * The ruleset an instruction asks for. Each sentence gets a role (requirement, modifier,
 * restatement, rationale, heading, permission); requirements are read structurally (field,
 * predicate, values, scope, exemptions, what absent means) and compiled to CEL; a sentence the
 * structural reader cannot take is offered to the catalog's named requirements. Throws
 * InstructionNotUnderstoodError when a sentence states a requirement that cannot be compiled,
 * or when nothing in the instruction is a requirement. Deterministic.
 */
export function compileInstruction(instruction: string, labels: Record<string, string> = {}, catalog: readonly RuleTemplate[] = CATALOG): CompiledInstruction {
  // A published description: only its operative sentence (and what narrows it) is read for requirements.
  const roles = describeRoles(instruction)
  const compiled = compileRequirementText(roles?.requirementText ?? instruction, labels, catalog, instruction)
  if (!roles) return { ...compiled, spec: { ...compiled.spec, instruction } }
  const context: SentenceReading[] = roles.context.map((sentence) => ({ text: sentence.text, role: sentence.role, became: sentence.note }))
  // A sentence that says what is skipped narrows the requirement; read but not applied, the ruleset would judge more than meant.
  const unapplied = roles.scopes.filter((scope) => !compiled.sentences.some((sentence) => scope.includes(sentence.text) && sentence.role === 'modifier' && /^(?:qualifies|exempts from) \d/.test(sentence.became)))
  if (unapplied.length > 0) {
    const clauses: ClauseReport[] = unapplied.map((text) => ({ text, status: 'unmapped', reason: 'not compiled: it says which documents are skipped, but no requirement read here could be narrowed by it; which field and value decide that a document is skipped?' }))
    throw new InstructionNotUnderstoodError(clauses, [...context, ...compiled.sentences])
  }
  // Every part of the operative sentence says what is required: a part read as stating nothing (a condition such as
  // "for any Pod mounting the Docker socket") would be dropped, and the rule would judge more than meant.
  const unread = compiled.sentences.filter((sentence) => sentence.role === 'rationale' && sentence.became === 'states no requirement' && !PURPOSE_LEAD.test(sentence.text))
  if (unread.length > 0) {
    const clauses: ClauseReport[] = unread.map((sentence) => ({ text: sentence.text, status: 'unmapped', reason: 'not compiled: it is part of the sentence that says what the policy requires, and nothing was read from it; which field and value does it check?' }))
    throw new InstructionNotUnderstoodError(clauses, [...context, ...compiled.sentences.map((sentence) => (unread.includes(sentence) ? { ...sentence, became: clauses[0]?.reason ?? sentence.became } : sentence))])
  }
  return { ...compiled, spec: { ...compiled.spec, instruction }, sentences: [...context, ...compiled.sentences] }
}

/** "to ensure ...", "so that ...", "because ...": why the requirement is there, not a part of it. */
const PURPOSE_LEAD = /^\s*(?:,\s*)?(?:to|so|so that|in order to|because|since|as|which|thus|thereby|helping|ensuring|making)\b/i

function compileRequirementText(instruction: string, labels: Record<string, string>, catalog: readonly RuleTemplate[], fullText: string): CompiledInstruction {
  const fromLabels = contextFromLabels(labels)
  const platform: Platform = fromLabels.platform ?? (TERRAFORM_WORDS.test(normalizeText(instruction)) ? 'terraform' : 'kubernetes')
  const templated: TemplatedRule[] = []
  const named = (text: string): Rule[] | undefined => {
    try {
      const compiled = compileWithCatalog(text, labels, catalog)
      if (namedRuleDoubt({ clause: text, instruction: fullText, labelledKinds: fromLabels.kinds }, compiled.spec.rules, compiled.rules) !== undefined) return undefined
      templated.push(...compiled.rules)
      return compiled.spec.rules
    } catch (error) {
      if (error instanceof InstructionNotUnderstoodError) return undefined
      throw error
    }
  }
  const understood = compileUnderstood(instruction, { platform, kinds: fromLabels.kinds, fullText, catalog }, named)
  // A sentence of another role that was not understood (a bound taken for a restatement) is reported as one that was.
  const refused = new Set(understood.problems.map((problem) => problem.sentence))
  const clauses: ClauseReport[] = understood.sentences
    .filter((sentence) => sentence.role === 'requirement' || refused.has(sentence.text))
    .map((sentence) => (sentence.rules ? { text: sentence.text, status: 'mapped', rule: sentence.rules.join(', ') } : { text: sentence.text, status: 'unmapped', reason: sentence.became }))
  if (understood.problems.length > 0) throw new InstructionNotUnderstoodError(clauses, understood.sentences, understood.completable ? understood.rules : undefined)
  if (understood.rules.length === 0) {
    const permissive = understood.sentences.length > 0 && understood.sentences.every((sentence) => sentence.role === 'permission' || sentence.role === 'heading' || sentence.role === 'rationale')
    const reason = permissive && understood.sentences.some((sentence) => sentence.role === 'permission')
      ? PERMITS_ONLY
      : 'no sentence states a requirement on a field this compiler can find; which field must be checked, and what must it hold or not hold?'
    // Nothing read, nothing permitted: a model (when configured) may still read the instruction as a whole.
    throw new InstructionNotUnderstoodError([{ text: instruction, status: 'unmapped', suggestions: [], reason }], understood.sentences, understood.completable && reason !== PERMITS_ONLY ? [] : undefined)
  }
  // A named requirement is described by its title, as the catalog names it.
  const titles = understood.rules.map((rule) => catalog.find((template) => template.id === rule.template?.id)?.title ?? rule.description ?? rule.name)
  const spec: RulesetSpec = { description: `Generated from an instruction: ${titles.join(' ')}`.slice(0, 2000), labels: { ...labels }, instruction, rules: understood.rules }
  const kept = new Set(understood.rules.map((rule) => rule.name))
  return { spec, clauses, rules: templated.filter((rule) => kept.has(rule.rule)), sentences: understood.sentences }
}

const PERMITS_ONLY = 'it permits something rather than requiring or forbidding it, and a ruleset holds only requirements; what must every other document do, or not do?'

export interface InstructionContext {
  platform: Platform
  /** From labels.resource: what every clause is about unless it names its own kinds. */
  kinds: string[]
}

export interface UnderstoodInstruction {
  context: InstructionContext
  clauses: Array<{ clause: Clause; recognition: ClauseRecognition; report: ClauseReport }>
}

/** The instruction did not map completely: nothing may be created from it. */
export class InstructionNotUnderstoodError extends Error {
  constructor(
    readonly clauses: ClauseReport[],
    readonly sentences: SentenceReading[] = [],
    /**
     * The rules of the sentences that were understood, when the others stand alone (nothing
     * narrows them): a model may complete the instruction by writing rules for the rest.
     */
    readonly understoodRules?: Rule[],
  ) {
    super(describeProblems(clauses))
    this.name = 'InstructionNotUnderstoodError'
  }
}

/** Platform and kinds from the labels (`platform`, `resource`); unknown platforms are generic JSON. */
export function contextFromLabels(labels: Record<string, string>): { platform?: Platform; kinds: string[] } {
  const platformLabel = labels.platform?.trim().toLowerCase()
  const platform: Platform | undefined =
    platformLabel === undefined || platformLabel === ''
      ? undefined
      : /^(kubernetes|k8s|kube|openshift|eks|gke|aks)$/.test(platformLabel)
        ? 'kubernetes'
        : /^(terraform|tf|terraform-plan|opentofu)$/.test(platformLabel)
          ? 'terraform'
          : 'generic'
  const resource = labels.resource?.trim()
  const kinds: string[] = []
  for (const part of resource ? resource.split(/[\s,]+/) : []) {
    // "plan", "tfplan": a word for the whole plan, not a resource type to narrow to.
    // A kind written as one that Verdict has no schema for (a custom resource: `Application`, `PeerAuthentication`) is still
    // what is judged: read with no schema, only paths written as such name its fields, never words read against a Pod's.
    const kind = platform === 'terraform' ? (isTerraformType(part) ? part : undefined) : (kindFromLabel(part) ?? (platform === 'kubernetes' && CUSTOM_KIND.test(part) ? part : undefined))
    if (kind) kinds.push(kind)
  }
  return platform ? { platform, kinds } : { kinds }
}

const CUSTOM_KIND = /^[A-Z][a-z]+(?:[A-Z][a-z0-9]*)*$/

const TERRAFORM_WORDS = /\b(terraform|tf ?plan|aws|s3|buckets?|security groups?|ingress rules?|rds|ec2|instance types?|db instances?|aws_[a-z0-9_]+)\b/

/**
 * Splits and recognizes an instruction: which template each clause asks for, with parameters.
 * Deterministic: the same instruction and labels always give the same clauses and templates.
 */
export function understandInstruction(instruction: string, labels: Record<string, string> = {}, catalog: readonly RuleTemplate[] = CATALOG): UnderstoodInstruction {
  const fromLabels = contextFromLabels(labels)
  const platformOf = (text: string): Platform => fromLabels.platform ?? (TERRAFORM_WORDS.test(normalizeText(text)) ? 'terraform' : 'kubernetes')
  const context: InstructionContext = { platform: fromLabels.platform ?? platformOf(instruction), kinds: fromLabels.kinds }
  const clauses: UnderstoodInstruction['clauses'] = []
  let inheritedKinds: readonly string[] = fromLabels.kinds
  const prepare = (text: string): Clause => {
    const clause = prepareClause(text, { platform: platformOf(text), inheritedKinds, vocabulary: VOCABULARY })
    // Without a platform label, a sentence with no Terraform words of its own follows a Terraform instruction.
    if (fromLabels.platform || clause.platform === 'terraform' || context.platform !== 'terraform') return clause
    const asPlan: Clause = { ...clause, platform: 'terraform' }
    return recognizeClause(asPlan, catalog).best ? asPlan : clause
  }

  for (const hard of hardClauses(instruction)) {
    const split = softPieces(hard)
    // Deciding each soft break re-reads the text merged so far, which is quadratic in the pieces; no sentence a person
    // writes has this many, so past the bound the clause is read whole and the work stays linear in the input.
    const pieces = split.length > MAX_SOFT_PIECES ? [{ text: hard, joiner: '' }] : split
    let current = pieces[0]?.text ?? hard
    for (const piece of pieces.slice(1)) {
      // A soft break separates two clauses only when each side asks for its own template.
      const negated = sharedNegation(current, piece.text)
      const negatedRight = negated === piece.text ? undefined : recognizeClause(prepare(negated), catalog).best
      // Only when the shared negation makes a rule of it; otherwise the piece is reported as written.
      const rightText = negatedRight ? negated : piece.text
      const left = recognizeClause(prepare(current), catalog).best
      const right = negatedRight ?? recognizeClause(prepare(rightText), catalog).best
      let separate = left && (right ? left.template.id !== right.template.id || twoAsks(left, right) : standsAlone(piece.text))
      // "require owner and team labels": a generic field template grabbing "require owner" is a
      // misreading when the whole clause is a platform rule.
      if (separate && left && right && (left.template.platform === 'generic' || right.template.platform === 'generic')) {
        const merged = recognizeClause(prepare(`${current}${piece.joiner}${piece.text}`), catalog).best
        if (merged && merged.template.platform !== 'generic') separate = false
      }
      if (separate) {
        clauses.push(finish(prepare(current), catalog))
        inheritedKinds = clauses[clauses.length - 1]?.clause.kinds ?? inheritedKinds
        current = rightText
      } else {
        current = `${current}${piece.joiner}${piece.text}`
      }
    }
    clauses.push(finish(prepare(current), catalog))
    inheritedKinds = clauses[clauses.length - 1]?.clause.kinds ?? inheritedKinds
  }
  return { context, clauses }
}

const MAX_SOFT_PIECES = 32

const LEADING_NEGATION = /^\s*(deny|block|forbid|disallow|prohibit|reject|ban|no|never|don'?t allow|do not allow|must not allow)\b/i
const OWN_PREDICATE = /\b(no|not|never|must|should|shall|need|needs|require[sd]?|only|allow(ed)?|permit(ted)?|may|can|is|are|be|have|has|use|run|set|at (least|most)|deny|block|forbid|disallow)\b/

/**
 * "deny privileged pods and images from docker.io": the leading negation governs both objects,
 * so the second piece, having no verb of its own, is read as "deny images from docker.io";
 * read alone it would ask for the opposite.
 */
function sharedNegation(left: string, right: string): string {
  const lead = LEADING_NEGATION.exec(left)
  if (!lead?.[1] || OWN_PREDICATE.test(normalizeText(right))) return right
  return `${lead[1]} ${right}`
}

/**
 * Two complete asks of one template outside Kubernetes ("tls.enabled must be true and debug
 * must be false"): each becomes its own rule. Kubernetes templates take lists instead ("labels
 * team and owner"), so there the pieces stay together.
 */
function twoAsks(left: Candidate, right: Candidate): boolean {
  return (
    left.template.platform !== 'kubernetes' &&
    left.recognition.missing.length === 0 &&
    right.recognition.missing.length === 0 &&
    JSON.stringify(left.recognition.parameters) !== JSON.stringify(right.recognition.parameters)
  )
}

const CLAUSE_VERB = /\b(must|should|shall|need|needs|require[sd]?|make|ensure|keep|never|always|have|has|be|are|is|use|run|set|allow|deny|block|forbid|want|do)\b/
const FUNCTION_WORDS = new Set(
  'the its they them this that these those our and but for with from are must should need needs all every any each also too set have has if when unless then where there here than more less most least which what who whose please thanks thank hey can could would will shall may might sure just only some none not nor yes into onto upon over under such same other others own been being was were does did done get got'.split(' '),
)

/**
 * Whether a piece that maps to nothing after "and" or a comma is a clause of its own (then it is
 * reported) rather than the rest of the previous one ("labels team and cost-center must be set"):
 * it has a verb and a word the catalog never uses ("and make it fast").
 */
function standsAlone(piece: string): boolean {
  const text = normalizeText(piece)
  if (!CLAUSE_VERB.test(text)) return false
  return text.split(/\s+/).some((word) => /^[a-z]{3,}$/.test(word) && !FUNCTION_WORDS.has(word) && !CATALOG_WORDS.has(word) && canonicalKind(word) === undefined)
}

function finish(clause: Clause, catalog: readonly RuleTemplate[]): UnderstoodInstruction['clauses'][number] {
  const recognized = recognizeClause(clause, catalog)
  // A permission is not a rule: mapping "privileged pods are allowed" to "no privileged pods" would invert it.
  const recognition = clause.permissive ? { tied: [], ranked: recognized.ranked } : recognized
  const report: ClauseReport = { text: clause.text, status: 'unmapped' }
  if (clause.permissive) report.reason = PERMITS_ONLY
  const best = recognition.best
  if (best) {
    report.template = best.template.id
    report.parameters = best.recognition.parameters
    if (best.recognition.missing.length > 0) {
      report.status = 'missing-parameters'
      report.missing = best.recognition.missing.map((name) => ({
        name,
        question: best.template.parameters.find((parameter) => parameter.name === name)?.question ?? `what is ${name}?`,
      }))
    } else {
      report.status = 'mapped'
    }
  } else if (recognition.tied.length > 1) {
    report.status = 'ambiguous'
    report.suggestions = recognition.tied.map((candidate) => candidate.template.id)
  } else {
    report.suggestions = suggestTemplates(clause, catalog, recognition).map((template) => template.id)
  }
  return { clause, recognition, report }
}

/**
 * The ruleset an instruction asks for: one rule per clause, each recording its template and
 * parameters. Throws InstructionNotUnderstoodError when a clause maps to nothing, to two
 * templates at once, or lacks a required parameter.
 */
export function compileWithCatalog(instruction: string, labels: Record<string, string> = {}, catalog: readonly RuleTemplate[] = CATALOG): CompiledInstruction {
  const understood = understandInstruction(instruction, labels, catalog)
  const reports = understood.clauses.map((entry) => entry.report)
  if (reports.length === 0) throw new InstructionNotUnderstoodError([{ text: instruction, status: 'unmapped', suggestions: [] }])
  if (reports.some((report) => report.status !== 'mapped')) throw new InstructionNotUnderstoodError(reports)
  const rules: Rule[] = []
  const templated: TemplatedRule[] = []
  const names = new Set<string>()
  for (const entry of understood.clauses) {
    const best = entry.recognition.best
    if (!best) continue
    const rule = ruleForClause(best.template, best.recognition.parameters, entry.clause)
    let name = rule.name
    for (let suffix = 2; names.has(name); suffix += 1) name = `${rule.name}-${suffix}`
    names.add(name)
    rules.push({ ...rule, name })
    templated.push({ rule: name, template: best.template, parameters: best.recognition.parameters, kinds: entry.clause.kinds })
    entry.report.rule = name
  }
  const spec: RulesetSpec = { description: describeRuleset(understood), labels: { ...labels }, instruction, rules }
  return { spec, clauses: reports, rules: templated, sentences: [] }
}

/** The template's rule, narrowed to the kinds the clause names when the template judges any kind. */
function ruleForClause(template: RuleTemplate, parameters: Parameters, clause: Clause): Rule {
  const rule = template.rule(parameters)
  const narrowed: Rule = { ...rule, template: { id: template.id, parameters } }
  if (template.platform === 'kubernetes' && clause.kinds.length > 0) {
    if (template.kinds.includes('*')) {
      narrowed.match = { ...(rule.match ?? {}), kinds: [...clause.kinds] }
    } else if (!template.kinds.includes('Pod')) {
      // Pod rules reach controllers through autogen; narrowing one to a controller would judge the controller as a Pod.
      const judged = clause.kinds.filter((kind) => template.kinds.includes(kind))
      if (judged.length > 0) narrowed.match = { ...(rule.match ?? {}), kinds: judged }
    }
  }
  return narrowed
}

function describeRuleset(understood: UnderstoodInstruction): string {
  const titles = understood.clauses.flatMap((entry) => (entry.recognition.best ? [entry.recognition.best.template.title] : []))
  return `Generated from an instruction: ${titles.join('; ')}`
}

function describeProblems(clauses: ClauseReport[]): string {
  return clauses
    .filter((clause) => clause.status !== 'mapped')
    .map((clause) => {
      if (clause.status === 'missing-parameters') {
        return `clause "${clause.text}" maps to ${clause.template ?? '?'} but does not say ${clause.missing?.map((missing) => missing.question).join(' and ')}`
      }
      if (clause.reason?.startsWith('not compiled: ')) return `sentence "${clause.text}": ${clause.reason.slice('not compiled: '.length)}`
      const suggestions = clause.suggestions && clause.suggestions.length > 0 ? `; closest templates: ${clause.suggestions.join(', ')}` : ''
      const reason = clause.reason ? ` (${clause.reason})` : ''
      if (clause.status === 'ambiguous') return `clause "${clause.text}" could mean several rules${suggestions}${reason}`
      return `clause "${clause.text}" does not map to any rule template${suggestions}${reason}`
    })
    .join('; ')
}
