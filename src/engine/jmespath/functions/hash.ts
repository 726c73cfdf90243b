import { createHash } from 'node:crypto'
import { chargeString } from '../budget.js'
import { STRING, stringArg, type JmespathFunction } from './function.js'

/** sha256(), sha1() and md5(): the hex digest of the string's UTF-8 bytes, as Kyverno computes it. */

function digest(name: string, algorithm: string): JmespathFunction {
  return {
    name,
    signature: [STRING],
    call: (args) => {
      const text = stringArg(args, 0)
      chargeString(text.length)
      return createHash(algorithm).update(text, 'utf8').digest('hex')
    },
  }
}

export const HASH_FUNCTIONS: readonly JmespathFunction[] = [digest('sha256', 'sha256'), digest('sha1', 'sha1'), digest('md5', 'md5')]
