import type { Rule } from '../model/rule.js'
import type { PatternValidation } from '../pattern/index.js'
import type { CompileProblem } from './compile-problem.js'
import { compileClassic, compilePatternValidation } from './compile-classic.js'
import type { CompiledClassic } from './compiled-classic.js'

/** A classic rule as Kyverno's autogen rewrites it for one family of controllers. */
export interface ClassicVariant {
  classic: CompiledClassic
  patterns?: PatternValidation
  message?: string
}

export interface ClassicAutogen {
  /** Deployment, DaemonSet, StatefulSet, ReplicaSet, Job, ReplicationController: the template at spec.template. */
  controllers: ClassicVariant
  /** CronJob: the template at spec.jobTemplate.spec.template. */
  cronjob: ClassicVariant
}

type Rewrites = readonly (readonly [string, string])[]

const CONTROLLER_REWRITES: Rewrites = [
  ['request.object.spec', 'request.object.spec.template.spec'],
  ['request.oldObject.spec', 'request.oldObject.spec.template.spec'],
  ['request.object.metadata', 'request.object.spec.template.metadata'],
  ['request.oldObject.metadata', 'request.oldObject.spec.template.metadata'],
]

const CRONJOB_REWRITES: Rewrites = [
  ['request.object.spec', 'request.object.spec.jobTemplate.spec.template.spec'],
  ['request.oldObject.spec', 'request.oldObject.spec.jobTemplate.spec.template.spec'],
  ['request.object.metadata', 'request.object.spec.jobTemplate.spec.template.metadata'],
  ['request.oldObject.metadata', 'request.oldObject.spec.jobTemplate.spec.template.metadata'],
]

/**
 * Kyverno's autogen judges a controller with a copy of the rule whose text is rewritten, every
 * `request.object.spec` becoming the template's spec and every `request.object.metadata` the
 * template's metadata, while `request.object` itself stays the controller (so
 * `request.object.kind` is `Deployment`, and a quoted `request."object".metadata` is left as the
 * controller's). A classic rule judging a controller's template reads variables the same way: over
 * the controller, with its text so rewritten. Problems were reported for the rule as written.
 */
export function classicAutogen(rule: Rule): ClassicAutogen {
  return { controllers: variant(rule, CONTROLLER_REWRITES), cronjob: variant(rule, CRONJOB_REWRITES) }
}

function variant(rule: Rule, rewrites: Rewrites): ClassicVariant {
  const parts = { context: rule.context, preconditions: rule.preconditions, validate: rule.validate, message: rule.message }
  let text = JSON.stringify(parts)
  for (const [from, to] of rewrites) text = text.replaceAll(from, to)
  const rewritten = JSON.parse(text) as Pick<Rule, 'context' | 'preconditions' | 'validate' | 'message'>
  const copy: Rule = { ...rule, ...rewritten }
  const ignored: CompileProblem[] = []
  const patterns = compilePatternValidation(copy.validate, 'validate', rule.name, ignored)
  const classic = compileClassic(copy, '', ignored, patterns) ?? { context: [], messageHasVariables: false }
  const out: ClassicVariant = { classic }
  if (patterns) out.patterns = patterns
  if (copy.message !== undefined) out.message = copy.message
  return out
}
