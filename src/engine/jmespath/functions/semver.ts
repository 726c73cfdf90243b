import { JmespathError } from '../errors.js'
import { parseSemverRange, parseVersionLeniently } from '../go-semver-range.js'
import { STRING, stringArg, type JmespathFunction } from './function.js'

/**
 * semver_compare(version, range): true when the version satisfies a blang/semver range such as
 * `>=1.2.0 <2.0.0 || 3.x`. As in Kyverno, a version that does not parse counts as 0.0.0; a range
 * that does not parse is an error.
 */
export const SEMVER_FUNCTIONS: readonly JmespathFunction[] = [
  {
    name: 'semver_compare',
    signature: [STRING, STRING],
    call: (args) => {
      const version = parseVersionLeniently(stringArg(args, 0))
      let range
      try {
        range = parseSemverRange(stringArg(args, 1))
      } catch (error) {
        throw new JmespathError((error as Error).message, { cause: error })
      }
      return range(version)
    },
  },
]
