import type { JsonValue } from '../jmespath/index.js'

/**
 * How Kyverno classic rules see an input beside what the input itself says. Outside tests the
 * defaults hold: the admission request's shape, no values.
 */
export interface PrepareOptions {
  /**
   * Which of Kyverno's request contexts to build: `admission` (the webhook's, the default) or
   * `cli` (what `kyverno test` builds, which the conformance runner copies).
   */
  mode?: 'admission' | 'cli'
  /** Values every rule sees, keys as dotted JMESPath paths (`request.operation`), as a values file gives them. */
  values?: Readonly<Record<string, JsonValue>>
  /** Values one rule sees, applied before its context entries (a values file's per-rule values). */
  ruleValues?: (rule: string) => Readonly<Record<string, JsonValue>> | undefined
  /** The clock time_now() reads; the real time when absent. */
  now?: Date
}
