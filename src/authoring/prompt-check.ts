import { CATALOG, type RuleTemplate } from './catalog/index.js'
import { compileInstruction, InstructionNotUnderstoodError, MAX_INSTRUCTION_LENGTH, understandInstruction, type ClauseReport } from './compile-instruction.js'
import type { SentenceReading } from './understand/requirement.js'

export type PromptIssueCode =
  | 'empty'
  | 'too-long'
  | 'injection'
  | 'not-policy'
  | 'unmapped'
  | 'ambiguous'
  | 'missing-parameters'
  | 'contradictory'
  | 'overlapping'
  | 'duplicate'

export interface PromptIssue {
  code: PromptIssueCode
  message: string
  /** The clause it is about, when it is about one. */
  clause?: string
}

export interface PromptCheck {
  /** True when creating a ruleset from this instruction would succeed. */
  valid: boolean
  issues: PromptIssue[]
  clauses: ClauseReport[]
  /** Every sentence with its role and what it would become. */
  sentences: SentenceReading[]
}

const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|all|any|your|the)\b.{0,20}\b(instructions?|prompts?|rules?|directions?|messages?|context)\b/i,
  /\b(system|developer)\s+(prompt|message|instructions?)\b/i,
  /\byou are now\b|\bact as\b|\bpretend (to be|you are)\b|\bjailbreak\b|\bDAN\b/i,
  /\b(reveal|print|show|repeat|output)\b.{0,30}\b(prompt|instructions|system message|api key|secret)\b/i,
  /\bnew instructions?\s*:/i,
  /<\/?(system|assistant|user)>|\[\/?INST\]|^\s*(system|assistant)\s*:/im,
]

/** Text addressed to a language model rather than describing a rule. */
export function looksLikeInjection(text: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(text))
}

const POLICY_WORDS = /\b(must|should|shall|need|needs|require[sd]?|only|never|no|not|forbid|deny|disallow|block|allow(ed)?|enforce|ensure|at least|at most|limit|limits|label|labels|tag|tags|image|images|container|containers|pods?|deployments?|encrypt(ed|ion)?|public|port|replicas?)\b/i

/** How creating the ruleset would read the instruction, and whether it would succeed. */
function readSentences(instruction: string, labels: Record<string, string>, catalog: readonly RuleTemplate[]): { sentences: SentenceReading[]; compiles: boolean } {
  try {
    return { sentences: compileInstruction(instruction, labels, catalog).sentences, compiles: true }
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    return { sentences: error.sentences, compiles: false }
  }
}

/**
 * What creating a ruleset from this instruction would run into, without creating anything:
 * empty or too long, text aimed at a model, nothing about policy, clauses that map to nothing,
 * to several templates, or lack a parameter, and a permission contradicting a requirement; and,
 * without making it invalid, clauses that repeat each other or ask for one template twice.
 */
export function checkPrompt(instruction: string, labels: Record<string, string> = {}, catalog: readonly RuleTemplate[] = CATALOG): PromptCheck {
  const issues: PromptIssue[] = []
  if (instruction.trim() === '') return { valid: false, issues: [{ code: 'empty', message: 'the instruction is empty' }], clauses: [], sentences: [] }
  if (instruction.length > MAX_INSTRUCTION_LENGTH) {
    return { valid: false, issues: [{ code: 'too-long', message: `the instruction has ${instruction.length} characters; at most ${MAX_INSTRUCTION_LENGTH}` }], clauses: [], sentences: [] }
  }
  if (looksLikeInjection(instruction)) {
    issues.push({ code: 'injection', message: 'the instruction contains text addressed to a language model (such as "ignore previous instructions"); describe the rules only' })
  }
  const understood = understandInstruction(instruction, labels, catalog)
  const clauses = understood.clauses.map((entry) => entry.report)
  const mapped = understood.clauses.filter((entry) => entry.report.status === 'mapped')
  const anyCandidate = understood.clauses.some((entry) => entry.recognition.ranked.length > 0)
  if (mapped.length === 0 && !anyCandidate && !POLICY_WORDS.test(instruction)) {
    issues.push({ code: 'not-policy', message: 'the instruction does not read like a rule about resources (for example "no privileged pods" or "images only from registry.acme.io")' })
    return { valid: false, issues, clauses, sentences: [] }
  }
  for (const entry of understood.clauses) {
    const report = entry.report
    if (report.status === 'unmapped') {
      const because = report.reason ? `: ${report.reason}` : ''
      const closest = report.suggestions && report.suggestions.length > 0 ? `; closest templates: ${report.suggestions.join(', ')}` : ''
      issues.push({ code: 'unmapped', clause: report.text, message: `"${report.text}" does not map to any rule template${because}${closest}` })
      // "privileged pods are allowed" next to "no privileged pods": the two cannot both hold.
      if (entry.clause.permissive) {
        const contradicted = mapped.find((other) => entry.recognition.ranked.some((candidate) => candidate.template.id === other.report.template))
        if (contradicted) issues.push({ code: 'contradictory', clause: report.text, message: `"${report.text}" permits what "${contradicted.report.text}" forbids` })
      }
    } else if (report.status === 'ambiguous') {
      issues.push({ code: 'ambiguous', clause: report.text, message: `"${report.text}" could mean any of ${report.suggestions?.join(', ') ?? 'several templates'}; say more precisely what must hold` })
    } else if (report.status === 'missing-parameters') {
      issues.push({ code: 'missing-parameters', clause: report.text, message: `"${report.text}" does not say ${report.missing?.map((missing) => missing.question).join(' and ')}` })
    }
  }
  for (let i = 0; i < mapped.length; i += 1) {
    for (let j = i + 1; j < mapped.length; j += 1) {
      const [a, b] = [mapped[i], mapped[j]]
      if (!a || !b || a.report.template !== b.report.template) continue
      const same = JSON.stringify(a.report.parameters) === JSON.stringify(b.report.parameters)
      issues.push(
        same
          ? { code: 'duplicate', clause: b.report.text, message: `"${b.report.text}" repeats "${a.report.text}"` }
          : { code: 'overlapping', clause: b.report.text, message: `"${a.report.text}" and "${b.report.text}" both ask for ${a.report.template}; each becomes its own rule and both must hold` },
      )
    }
  }
  const blocking = new Set<PromptIssueCode>(['empty', 'too-long', 'injection', 'not-policy', 'unmapped', 'ambiguous', 'missing-parameters', 'contradictory'])
  // Creating the ruleset reads sentence by sentence (compileInstruction): what it says decides.
  const { sentences, compiles } = readSentences(instruction, labels, catalog)
  const catalogOnly = new Set<PromptIssueCode>(['unmapped', 'ambiguous', 'missing-parameters', 'not-policy'])
  const kept = compiles ? issues.filter((issue) => !catalogOnly.has(issue.code)) : issues
  if (!compiles) {
    for (const sentence of sentences.filter((item) => item.became.startsWith('not compiled: '))) {
      if (!kept.some((issue) => issue.clause === sentence.text)) kept.push({ code: 'unmapped', clause: sentence.text, message: `"${sentence.text}": ${sentence.became.slice('not compiled: '.length)}` })
    }
  }
  const valid = compiles && !kept.some((issue) => blocking.has(issue.code))
  return { valid, issues: valid || kept.some((issue) => blocking.has(issue.code)) ? kept : [...kept, { code: 'unmapped', message: 'no sentence states a requirement this compiler can check' }], clauses, sentences }
}
