import { unsupportedFunction } from '../errors.js'
import { STRING, type JmespathFunction } from './function.js'

/**
 * Kyverno functions Verdict registers only to refuse them clearly (an unknown function would
 * read as a typo in the policy):
 *
 * - x509_decode returns Go's x509.Certificate structure marshalled to JSON (raw DER bytes,
 *   Go-named fields, big integers as strings); matching that shape is a project of its own.
 * - random generates text from a regular expression; its output differs on every call, which a
 *   policy engine whose verdicts are audited and replayed should not produce.
 */
export const UNSUPPORTED_FUNCTIONS: readonly JmespathFunction[] = [
  {
    name: 'x509_decode',
    signature: [STRING],
    call: () => {
      throw unsupportedFunction('x509_decode', "decoding certificates into Go's x509 structure is outside what Verdict offers; decode them before they reach a policy")
    },
  },
  {
    name: 'random',
    signature: [STRING],
    call: () => {
      throw unsupportedFunction('random', 'results must be reproducible, and random() differs on every call')
    },
  },
]
