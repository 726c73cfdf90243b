import { callParts, identifierName, parseCel, selectParts, visitCel, type CelAstNode } from './cel-syntax.js'

/**
 * Autogen in the API server's terms. Verdict judges a pod controller by presenting its pod
 * template as a Pod (engine/autogen/pod-from-controller.ts): `apiVersion: v1`, `kind: Pod`, the
 * template's metadata with the controller's name and namespace, the template's spec. A
 * ValidatingAdmissionPolicy sees the controller itself, so each expression is rewritten to read
 * the template where it read the Pod:
 *
 * | the rule reads | the controller's policy reads |
 * |---|---|
 * | `object.spec…` | `object.spec.template.spec…` (CronJob: `object.spec.jobTemplate.spec.template.spec…`) |
 * | `object.metadata.labels…` (any field but name and namespace) | the template's `metadata.labels…` |
 * | `object.metadata.name`, `.namespace` | the controller's, else the template's |
 * | `object.kind`, `object.apiVersion` | `'Pod'`, `'v1'` |
 * | `object == null` | the same (a controller always has a template: a match condition says so) |
 *
 * and the same for `oldObject`. Any other use of the whole object (passed to a function, indexed
 * by a computed key) cannot be rewritten: the rule is refused.
 */

export type TemplateForm = 'controllers' | 'cronjobs'

export const TEMPLATE_PATH: Readonly<Record<TemplateForm, string>> = {
  controllers: 'spec.template',
  cronjobs: 'spec.jobTemplate.spec.template',
}

/** Thrown when an expression reads the object in a way the template cannot stand for. */
export class NotRewritable extends Error {}

const ROOTS = ['object', 'oldObject'] as const

interface Edit {
  start: number
  end: number
  text: string
}

/** The expression reading the controller's pod template where it read the Pod. */
export function rewriteForPodTemplate(source: string, form: TemplateForm): string {
  const root = parseCel(source)
  if (!root) throw new NotRewritable('does not parse')
  const edits: Edit[] = []
  visitCel(root, ({ node, ancestors, bound }) => {
    const name = identifierName(node)
    if (name === undefined || !(ROOTS as readonly string[]).includes(name) || bound.has(name)) return
    edits.push(editFor(source, node, name, ancestors, form))
  })
  return applyEdits(source, edits)
}

function editFor(source: string, node: CelAstNode, name: string, ancestors: readonly CelAstNode[], form: TemplateForm): Edit {
  const template = `${name}.${TEMPLATE_PATH[form]}`
  const [first, second, third] = ancestors
  const firstSelect = first ? selectParts(first) : undefined
  if (!first || !firstSelect || firstSelect.operand !== node) {
    if (first && isNullComparison(first, node)) return { start: node.start, end: node.start, text: '' }
    throw new NotRewritable(`reads \`${name}\` as a whole, which cannot stand for the pod template of a controller`)
  }
  const wrappedInHas = (at: CelAstNode | undefined, inner: CelAstNode): boolean => at !== undefined && callParts(at)?.name === 'has' && callParts(at)?.receiver === undefined && callParts(at)?.args[0] === inner
  const field = firstSelect.field
  if (field === 'kind' || field === 'apiVersion') {
    const constant = field === 'kind' ? "'Pod'" : "'v1'"
    if (firstSelect.optional) throw new NotRewritable(`reads \`${name}.?${field}\`, which the generator does not rewrite`)
    if (wrappedInHas(second, first)) return replace(source, second as CelAstNode, 'true')
    return replace(source, first, constant)
  }
  if (field !== 'metadata') return { start: node.start, end: node.end, text: template }
  const secondSelect = second ? selectParts(second) : undefined
  if (!second || !secondSelect || secondSelect.operand !== first || firstSelect.optional) {
    if (wrappedInHas(second, first)) return replace(source, second as CelAstNode, 'true')
    throw new NotRewritable(`reads \`${name}.metadata\` as a whole, which under autogen merges the controller's name and namespace into the template's metadata`)
  }
  const key = secondSelect.field
  if (key === 'name' || key === 'namespace') {
    if (secondSelect.optional) throw new NotRewritable(`reads \`${name}.metadata.?${key}\`, which the generator does not rewrite`)
    const own = `${name}.metadata.${key}`
    const templates = `${template}.metadata`
    if (wrappedInHas(third, second)) return replace(source, third as CelAstNode, `(has(${own}) || has(${templates}) && has(${templates}.${key}))`)
    return replace(source, second, `(has(${own}) ? ${own} : ${templates}.${key})`)
  }
  // The pod view always has metadata (the controller's name at least); the template may not.
  if (wrappedInHas(third, second)) return replace(source, third as CelAstNode, `(has(${template}.metadata) && has(${template}.metadata.${key}))`)
  if (secondSelect.optional) return replace(source, first, `${template}.?metadata`)
  return { start: node.start, end: node.end, text: template }
}

/** `object == null`, `null != oldObject`. */
function isNullComparison(parent: CelAstNode, node: CelAstNode): boolean {
  if (parent.op !== '==' && parent.op !== '!=') return false
  const [left, right] = parent.args as [CelAstNode, CelAstNode]
  const other = left === node ? right : left
  return other.op === 'value' && other.args === null
}

/** A select chain written plainly (`object.metadata.name`), whose source range can be replaced whole. */
const PLAIN_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*\??\s*[A-Za-z_][A-Za-z0-9_]*)*$/

function replace(source: string, node: CelAstNode, text: string): Edit {
  const written = source.slice(node.start, node.end)
  const inner = node.op === 'call' ? written.replace(/^has\s*\(/, '').replace(/\)$/, '') : written
  if (!PLAIN_PATH.test(inner.trim())) throw new NotRewritable(`reads \`${written}\` in a form the generator does not rewrite (write it as a plain path)`)
  return { start: node.start, end: node.end, text }
}

function applyEdits(source: string, edits: Edit[]): string {
  const ordered = edits.filter((edit) => edit.end > edit.start).sort((a, b) => b.start - a.start)
  let out = source
  let limit = Number.POSITIVE_INFINITY
  for (const edit of ordered) {
    // Nested edits (has() around a select) keep the outer one: the inner range lies inside it.
    if (edit.end > limit) continue
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
    limit = edit.start
  }
  return out
}
