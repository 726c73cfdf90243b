import type { Ruleset } from '../model/ruleset.js'
import { compileStoredRuleset } from './compile-ruleset.js'
import type { CompiledRuleset } from './compiled-ruleset.js'

/**
 * Compiled rulesets by name; a new version replaces the old one, so memory follows the live set.
 * What it holds was checked when it was written, so it compiles as stored (compileStoredRuleset).
 */
export class CompiledRulesetCache {
  readonly #byName = new Map<string, CompiledRuleset>()

  get(ruleset: Ruleset): CompiledRuleset {
    const cached = this.#byName.get(ruleset.name)
    if (cached && cached.version === (ruleset.version ?? 0)) return cached
    const compiled = compileStoredRuleset(ruleset)
    this.#byName.set(ruleset.name, compiled)
    return compiled
  }

  delete(name: string): void {
    this.#byName.delete(name)
  }

  get size(): number {
    return this.#byName.size
  }
}
