import Type from 'typebox'
import type { DefinitionProblem } from './definition-problem.js'

/**
 * The fields that switch a policy, or one rule of a ruleset, off without deleting it: `enabled:
 * false` and why. A switched-off policy judges nothing (admission lets requests through as if it
 * did not match, background scans leave it out, an evaluation says it is disabled); a switched-off
 * rule is not judged, and is listed as a skip saying so wherever it would have judged.
 */
export const SwitchFields = {
  enabled: Type.Optional(Type.Boolean({ description: 'false switches it off without deleting it (default true)' })),
  disabledReason: Type.Optional(Type.String({ minLength: 1, description: 'why it is switched off; required with enabled: false' })),
}

export interface Switchable {
  enabled?: boolean | undefined
  disabledReason?: string | undefined
}

export function isSwitchedOff(definition: Switchable): boolean {
  return definition.enabled === false
}

/**
 * What a schema cannot say about the switch: switched off needs a reason, and only a switched-off
 * definition has one (a reason left on an enabled one would say it is off when it is not).
 */
export function checkSwitch(definition: Switchable, basePath: string): DefinitionProblem[] {
  const path = basePath === '' ? 'disabledReason' : `${basePath}.disabledReason`
  if (definition.enabled === false && definition.disabledReason === undefined) return [{ path, message: 'is required with enabled: false (say why it is switched off)' }]
  if (definition.enabled !== false && definition.disabledReason !== undefined) return [{ path, message: 'is only for enabled: false (remove it when switching back on)' }]
  return []
}
