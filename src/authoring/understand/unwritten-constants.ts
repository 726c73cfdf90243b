import type { Rule } from '../../engine/index.js'
import type { TemplatedRule } from '../compile-instruction.js'
import { kubernetesFieldKinds, kubernetesFields } from '../fields/kubernetes-fields.js'

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
    for (const constant of constantsOf(rule)) if (!written.has(canonical(constant)) && !enumWritten(constant, written)) unwritten.add(constant)
  }
  return [...unwritten]
}

const STANDARD_NAMED = /\b(?:pod security|pss|psa|baseline|restricted)\b/i

/** `CAP_NET_RAW` and `NET_RAW` name one capability; case is the author's. */
function canonical(word: string): string {
  return word.replace(/^[.-]+|[.-]+$/g, '').toUpperCase().replace(/^CAP_/, '')
}

const CONSTANT = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9_]*(?:\.[a-z0-9_]+){2,})$/

let groups: ReadonlyMap<string, ReadonlyArray<readonly string[]>> | undefined

/**
 * The values Kubernetes fields' schemas list (`Always`, `LoadBalancer`, `RuntimeDefault`), each
 * with the lists it is in. A rule comparing with one is comparing with a constant; it was written
 * when the text names a value of the same list ("the RuntimeDefault seccomp profile" lets the rule
 * also accept `Localhost`, the other allowed profile), and invented when it names none
 * ("imagePullPolicy has to be spelled out" is not "must be Always"). `kind` and `apiVersion` list
 * the kind's own name, which is the kind, not a value.
 */
function enumGroups(): ReadonlyMap<string, ReadonlyArray<readonly string[]>> {
  if (groups) return groups
  const found = new Map<string, Array<readonly string[]>>()
  for (const kind of kubernetesFieldKinds()) {
    for (const info of kubernetesFields(kind)) {
      if (!info.enum || /^(kind|apiVersion)$|\.(kind|apiVersion)$/.test(info.path)) continue
      for (const value of info.enum) if (/^[A-Z]/.test(value)) found.set(value, [...(found.get(value) ?? []), info.enum])
    }
  }
  groups = found
  return groups
}

/** An enum constant the text wrote, or a value of one of its lists. */
function enumWritten(constant: string, written: ReadonlySet<string>): boolean {
  return (enumGroups().get(constant) ?? []).some((list) => list.some((value) => written.has(canonical(value))))
}

/** The string literals of a rule's checks that are constants rather than words or paths the text gave. */
function constantsOf(rule: Rule): string[] {
  const expressions = [...(rule.validate?.cel ?? []).map((check) => check.expression), ...(rule.variables ?? []).map((variable) => variable.expression)]
  const constants: string[] = []
  for (const expression of expressions) {
    for (const match of expression.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
      const literal = match[1] ?? match[2] ?? ''
      // `orValue('ClusterIP')`: what Kubernetes defaults an unset field to, not a value the rule asks for.
      const defaulted = /orValue\(\s*$/.test(expression.slice(0, match.index))
      if (CONSTANT.test(literal) || (!defaulted && enumGroups().has(literal))) constants.push(literal)
    }
  }
  return constants
}
