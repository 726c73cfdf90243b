import type { Rule } from '../../engine/index.js'
import type { TemplatedRule } from '../compile-instruction.js'

/**
 * The constants a named rule compares against that the text never writes: a capability name
 * (`NET_BIND_SERVICE`) or a dotted setting name (`kernel.shm_rmid_forced`). "All containers
 * specify drop ALL" read by the Pod Security restricted control would also limit what may be
 * added back; "disallow sysctl settings with + or =" read by the baseline control would allow only
 * the safe sysctls. A rule may say more than the text only where the text names the standard that
 * says it ("Pod Security restricted", "the baseline profile") or the words the template gives for the
 * set ("only safe sysctls").
 */
export function unwrittenConstants(text: string, rules: readonly Rule[], templated: readonly TemplatedRule[]): string[] {
  const namesStandard = STANDARD_NAMED.test(text)
  const written = new Set([...text.matchAll(/[A-Za-z0-9_.-]+/g)].map((match) => canonical(match[0])))
  const unwritten = new Set<string>()
  for (const rule of rules) {
    const template = templated.find((item) => item.rule === rule.name)?.template
    if (namesStandard && template?.category.startsWith('pod-security')) continue
    if (template?.constantsNamedBy?.test(text)) continue
    for (const constant of constantsOf(rule)) if (!written.has(canonical(constant))) unwritten.add(constant)
  }
  return [...unwritten]
}

const STANDARD_NAMED = /\b(?:pod security|pss|psa|baseline|restricted)\b/i

/** `CAP_NET_RAW` and `NET_RAW` name one capability; case is the author's. */
function canonical(word: string): string {
  return word.replace(/^[.-]+|[.-]+$/g, '').toUpperCase().replace(/^CAP_/, '')
}

const CONSTANT = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9_]*(?:\.[a-z0-9_]+){2,})$/

/** The string literals of a rule's checks that are constants rather than words or paths the text gave. */
function constantsOf(rule: Rule): string[] {
  const expressions = [...(rule.validate?.cel ?? []).map((check) => check.expression), ...(rule.variables ?? []).map((variable) => variable.expression)]
  const constants: string[] = []
  for (const expression of expressions) {
    for (const match of expression.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
      const literal = match[1] ?? match[2] ?? ''
      if (CONSTANT.test(literal)) constants.push(literal)
    }
  }
  return constants
}
