import type { PatternNode } from './compile-pattern.js'
import { generatedPassCheck } from './generated-pass-check.js'
import { passCheckOf, type ExpandMap, type PassCheck } from './pass-check.js'

/**
 * A pattern's pass check, built when first needed and generated as code (generated-pass-check.ts)
 * once the pattern has been judged GENERATE_AFTER times: a pattern substituted for one request,
 * or only compiled to be validated, never pays for code generation.
 */
export function adaptivePassCheck(root: PatternNode, expand: ExpandMap): PassCheck {
  let uses = 0
  let closures: PassCheck | undefined
  let current: PassCheck = (resource, ints) => {
    closures ??= passCheckOf(root, expand)
    if (++uses >= GENERATE_AFTER) current = generatedPassCheck(root, expand) ?? closures
    return closures(resource, ints)
  }
  return (resource, ints) => current(resource, ints)
}

const GENERATE_AFTER = 3
