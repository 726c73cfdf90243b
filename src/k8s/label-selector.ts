/**
 * Checks a Kubernetes label selector in its string form (`key=value,other in (a,b),!third`), the
 * form the API server takes as `labelSelector`, so that a typo stops the start instead of making
 * every list and watch fail with 400. The grammar is apimachinery's: requirements separated by
 * commas, each `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (v1,v2)` or
 * `key notin (v1,v2)`; keys are `[prefix/]name` (prefix a DNS subdomain), names and values at most
 * 63 characters of alphanumerics, `-`, `_` and `.`, starting and ending alphanumeric.
 *
 * `positive`: whether some requirement can only hold for objects carrying a label (`key`,
 * `key=value`, `key in (...)`). A selector without one (`!key`, `key!=value`) also matches every
 * object lacking the label, which for ConfigMaps means nearly all of the cluster.
 */
export function parseLabelSelector(text: string): { problem: string } | { positive: boolean } {
  const parts = splitRequirements(text)
  if (parts === undefined) return { problem: 'the parentheses do not pair' }
  let positive = false
  for (const raw of parts) {
    const requirement = raw.trim()
    if (requirement === '') return { problem: 'a requirement is empty (two commas in a row, or one at an end)' }
    const checked = checkRequirement(requirement)
    if ('problem' in checked) return checked
    positive ||= checked.positive
  }
  return { positive }
}

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/

function checkRequirement(requirement: string): { problem: string } | { positive: boolean } {
  const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(requirement)
  if (set) {
    const [, key, operator, list] = set as unknown as [string, string, string, string]
    const values = list.split(',').map((value) => value.trim())
    const bad = keyProblem(key) ?? (values.length === 1 && values[0] === '' ? `${JSON.stringify(requirement)}: ${operator} needs at least one value` : undefined)
    if (bad) return { problem: bad }
    for (const value of values) if (!isValue(value)) return { problem: `${JSON.stringify(requirement)}: ${JSON.stringify(value)} is not a label value` }
    return { positive: operator === 'in' }
  }
  const compare = /^([^=!\s]+)\s*(==|!=|=)\s*(.*)$/.exec(requirement)
  if (compare) {
    const [, key, operator, value] = compare as unknown as [string, string, string, string]
    const bad = keyProblem(key)
    if (bad) return { problem: bad }
    if (!isValue(value.trim())) return { problem: `${JSON.stringify(requirement)}: ${JSON.stringify(value.trim())} is not a label value` }
    return { positive: operator !== '!=' }
  }
  const exists = /^(!?)\s*(\S+)$/.exec(requirement)
  if (exists) {
    const [, not, key] = exists as unknown as [string, string, string]
    const bad = keyProblem(key)
    return bad ? { problem: bad } : { positive: not === '' }
  }
  return { problem: `${JSON.stringify(requirement)} is not a requirement (key, !key, key=value, key!=value, key in (a,b), key notin (a,b))` }
}

function keyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/')
  const prefix = slash === -1 ? undefined : key.slice(0, slash)
  const name = slash === -1 ? key : key.slice(slash + 1)
  if (!NAME.test(name)) return `${JSON.stringify(key)} is not a label key (name part: at most 63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends)`
  if (prefix !== undefined && !(prefix.length <= 253 && prefix.split('.').every((label) => label.length <= 63 && DNS_LABEL.test(label)))) {
    return `${JSON.stringify(key)} is not a label key (its prefix must be a DNS subdomain such as example.com)`
  }
  return undefined
}

function isValue(value: string): boolean {
  return value === '' || NAME.test(value)
}

/** The requirements, split at the commas outside parentheses; undefined when parentheses do not pair. */
function splitRequirements(text: string): string[] | undefined {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]
    if (char === '(') depth += 1
    else if (char === ')') depth -= 1
    if (depth < 0 || depth > 1) return undefined
    if (char === ',' && depth === 0) {
      parts.push(text.slice(start, index))
      start = index + 1
    }
  }
  if (depth !== 0) return undefined
  parts.push(text.slice(start))
  return parts
}
