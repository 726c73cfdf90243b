import { celStringList } from '../catalog/pod-rule.js'

/**
 * Terraform resources in any document `terraform show -json` writes, as CEL rule variables.
 *
 * `terraformResourceVariables(types)` ends with a variable `resources`: the list of the managed
 * resources of those types (any type when `types` is empty), each normalized to
 * `{address: string, type: string, values: map}`, so a rule reads
 * `variables.resources.all(r, r.values.?storage_encrypted.orValue(false) == true)` whatever the
 * document's shape:
 *
 * - one resource, `{address, mode, type, name, provider_name, values}` (an element of a module's
 *   `resources`): itself;
 * - one resource change, `{address, type, change: {actions, before, after}}` (an element of a
 *   plan's `resource_changes`): judged on `change.after`, the value it will have;
 * - a plan (`planned_values`, `resource_changes`): every entry of `resource_changes`; when the
 *   plan has none, every resource of `planned_values.root_module` and its child modules;
 * - a state (`values.root_module`): every resource of the root module and its child modules.
 *
 * Semantics:
 * - Only managed resources: `mode: data` (and so `read` changes, which are data sources) is
 *   skipped; a resource without `mode` counts as managed.
 * - A change that removes the object (its actions contain `delete` but not `create`: a plain
 *   destroy, or a deposed object's delete), or that leaves no `after` object (`forget`), is
 *   skipped: nothing of it will exist. A replacement (`["delete","create"]` or
 *   `["create","delete"]`) is judged on `after`. `no-op` and `update` are judged: the resource
 *   exists after apply.
 * - One judgment per address in a plan, from `resource_changes` when it has entries. Terraform
 *   builds both `resource_changes` and `planned_values` from the same list of planned changes
 *   (internal/command/jsonplan: planned_values is every change but deletes, `values` being the
 *   change's `after` with unknowns omitted, and no-op changes are listed too), so a plan's
 *   planned_values holds nothing resource_changes lacks. resource_changes is the better source:
 *   it is flat (no module depth limit) and says which entries are deletes. Judging both would name
 *   every failing resource twice; merging them by address costs a comparison per pair of
 *   resources, which on plans of thousands of resources spends the evaluation's time budget.
 *   planned_values (walked through child modules) is used only when resource_changes is absent or
 *   empty, as in hand-written or trimmed plans; a trimmed plan whose resource_changes lists only
 *   some of its resources is judged on those only.
 * - Values Terraform only knows after apply are absent from `after`/`values`: rules see them as
 *   missing (`r.values.?attr` is none).
 * - `values` is never null: a resource without a values object gets `{}`. `address` falls back
 *   to `type.name`, then ''; `type` to ''.
 * - Modules are walked TERRAFORM_MODULE_DEPTH levels below the root (CEL has no recursion). A
 *   module nested deeper with child modules makes the variable raise an error
 *   (`No such key: terraform_modules_nested_too_deep`) instead of silently leaving resources out.
 *   Plans with resource_changes never walk modules.
 * - Malformed parts (a non-list `resources`, a non-map entry, a change entry without a `change`
 *   map) are skipped rather than errors; a plan whose resource_changes entries are all malformed
 *   falls back to planned_values.
 *
 * Helper variables are prefixed `terraform_`; a rule's own variables must not reuse those names
 * or `resources`.
 */

/** Child modules walked below the root module. */
export const TERRAFORM_MODULE_DEPTH = 6

const DOCUMENT = 'variables.terraform_document'
const CHANGES = 'variables.terraform_changes'

const isType = (expression: string, celType: 'map' | 'list' | 'string'): string => `(type(${expression}.orValue(null)) == ${celType})`

/** An optional's value when it is a list, else []. */
const listOf = (optional: string): string => `(${isType(optional, 'list')} ? ${optional}.orValue([]) : [])`

/** The document is one resource change (an element of `resource_changes`). */
function isResourceChange(doc: string): string {
  return `(${isType(`${doc}.?address`, 'string')} && ${isType(`${doc}.?type`, 'string')} && ${isType(`${doc}.?change`, 'map')})`
}

/** The document is one resource (an element of a module's `resources`, which may lack `values`). */
function isResource(doc: string): string {
  return `(${isType(`${doc}.?address`, 'string')} && ${isType(`${doc}.?type`, 'string')} && (${doc}.?values.hasValue() || ${isType(`${doc}.?mode`, 'string')}) && !${isType(`${doc}.?change`, 'map')})`
}

function isPlan(doc: string): string {
  return `(${isType(`${doc}.?planned_values`, 'map')} || ${isType(`${doc}.?resource_changes`, 'list')})`
}

function isState(doc: string): string {
  return isType(`${doc}.?values.?root_module`, 'map')
}

/**
 * CEL, true when `object` is a Terraform plan, state, resource or resource change as
 * `terraform show -json` writes them: a match condition for rules using terraformResourceVariables.
 */
export const terraformDocumentCondition = `type(object) == map && (${isPlan('object')} || ${isState('object')} || ${isResource('object')} || ${isResourceChange('object')})`

/** TypeScript twin of terraformDocumentCondition, over a JSON document. */
export function isTerraformDocument(doc: unknown): boolean {
  if (!isRecord(doc)) return false
  const stringField = (name: string): boolean => typeof doc[name] === 'string'
  const resourceLike = stringField('address') && stringField('type')
  return (
    isRecord(doc.planned_values) ||
    Array.isArray(doc.resource_changes) ||
    (isRecord(doc.values) && isRecord(doc.values.root_module)) ||
    (resourceLike && (isRecord(doc.change) || Object.hasOwn(doc, 'values') || stringField('mode')))
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringOr(optional: string, fallback: string): string {
  return `(${isType(optional, 'string')} ? ${optional}.orValue('') : ${fallback})`
}

const typeOf = (x: string): string => stringOr(`${x}.?type`, "''")

/** `address`, else `type.name`, else ''. */
function addressOf(x: string): string {
  return stringOr(`${x}.?address`, `(${isType(`${x}.?type`, 'string')} && ${isType(`${x}.?name`, 'string')} ? ${x}.type + '.' + ${x}.name : '')`)
}

const isManaged = (x: string): string => `${stringOr(`${x}.?mode`, "'managed'")} == 'managed'`

/** The modules below `module`, `depth` levels deep, `module` first. Identifiers m1..mN name each level. */
function moduleTree(module: string, depth: number): string {
  const children = `${listOf(`${module}.?child_modules`)}.filter(c, type(c) == map)`
  if (depth === 0) {
    return `(size(${children}) == 0 ? [${module}] : {}.terraform_modules_nested_too_deep)`
  }
  const child = `m${depth}`
  return `[${module}] + ${children}.map(${child}, ${moduleTree(child, depth - 1)}).flatten()`
}

function normalized(x: string, values: string): string {
  return `{'address': ${addressOf(x)}, 'type': ${typeOf(x)}, 'values': (${isType(values, 'map')} ? ${values}.orValue({}) : {})}`
}

/**
 * CEL variables whose last, `resources`, lists the managed resources of `types` (any type when
 * empty) in the document, normalized to {address, type, values}. See the file comment.
 */
export function terraformResourceVariables(types: readonly string[]): Array<{ name: string; expression: string }> {
  const ofTypes = (x: string): string => (types.length === 0 ? 'true' : `${typeOf(x)} in ${celStringList(types)}`)
  const actions = (c: string): string => listOf(`${c}.?change.?actions`)
  const removed = (c: string): string => `('delete' in ${actions(c)} && !('create' in ${actions(c)}))`
  const roots = [
    `(${isType(`${DOCUMENT}.?planned_values.?root_module`, 'map')} ? [${DOCUMENT}.planned_values.root_module] : [])`,
    `(${isState(DOCUMENT)} && !${isResource(DOCUMENT)} ? [${DOCUMENT}.values.root_module] : [])`,
  ].join(' + ')
  return [
    { name: 'terraform_document', expression: 'type(object) == map ? object : {}' },
    {
      name: 'terraform_changes',
      expression: `(${isResourceChange(DOCUMENT)} ? [${DOCUMENT}] : ${listOf(`${DOCUMENT}.?resource_changes`)}).filter(c, type(c) == map && ${isType('c.?change', 'map')})`,
    },
    { name: 'terraform_modules', expression: `(${roots}).map(m, ${moduleTree('m', TERRAFORM_MODULE_DEPTH)}).flatten()` },
    {
      name: 'resources',
      expression:
        `size(${CHANGES}) > 0` +
        ` ? ${CHANGES}.filter(c, ${isManaged('c')} && ${ofTypes('c')} && !${removed('c')} && ${isType('c.?change.?after', 'map')}).map(c, ${normalized('c', 'c.?change.?after')})` +
        ` : ((${isResource(DOCUMENT)} ? [${DOCUMENT}] : []) + variables.terraform_modules.map(m, ${listOf('m.?resources')}).flatten())` +
        `.filter(r, type(r) == map && ${isManaged('r')} && ${ofTypes('r')}).map(r, ${normalized('r', 'r.?values')})`,
    },
  ]
}
