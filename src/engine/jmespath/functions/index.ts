import { ARITHMETIC_FUNCTIONS } from './arithmetic.js'
import { BUILTIN_OVERRIDES, REMOVED_LIBRARY_FUNCTIONS } from './builtins.js'
import { DATA_FUNCTIONS } from './data.js'
import type { JmespathFunction } from './function.js'
import { HASH_FUNCTIONS } from './hash.js'
import { IMAGE_FUNCTIONS } from './image.js'
import { NETWORK_FUNCTIONS } from './network.js'
import { REGEX_FUNCTIONS } from './regex.js'
import { SEMVER_FUNCTIONS } from './semver.js'
import { STRING_FUNCTIONS } from './strings.js'
import { TIME_FUNCTIONS } from './time.js'
import { UNSUPPORTED_FUNCTIONS } from './unsupported.js'

/** Kyverno's custom functions (pkg/engine/jmespath), in the order of its function table. */
export const KYVERNO_FUNCTIONS: readonly JmespathFunction[] = [
  ...STRING_FUNCTIONS,
  ...REGEX_FUNCTIONS,
  ...DATA_FUNCTIONS,
  ...ARITHMETIC_FUNCTIONS,
  ...TIME_FUNCTIONS,
  ...SEMVER_FUNCTIONS,
  ...IMAGE_FUNCTIONS,
  ...NETWORK_FUNCTIONS,
  ...HASH_FUNCTIONS,
  ...UNSUPPORTED_FUNCTIONS,
]

/** Everything registered on the runtime: standard functions with Go's behaviour, then Kyverno's. */
export const ALL_FUNCTIONS: readonly JmespathFunction[] = [...BUILTIN_OVERRIDES, ...KYVERNO_FUNCTIONS]

export { REMOVED_LIBRARY_FUNCTIONS }
