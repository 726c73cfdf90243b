import { holds } from '../entry-template.js'
import type { JsonValue, ValueTest } from '../named-requirement.js'
import type { Vocabulary } from '../vocabulary.js'

/** Values an entry states for each case of its parameters, for the words and data that change with a flag ("with KMS"). */
export const CHOSEN_VALUES: Vocabulary = {
  values: {
    /** The `values` of the first of the `cases` whose `when` (a ValueTest) holds; the last case has no `when`. */
    chosen: (parameters, options) => {
      const cases = Array.isArray(options.cases) ? (options.cases as readonly JsonValue[]) : []
      for (const each of cases) {
        if (each === null || typeof each !== 'object' || Array.isArray(each)) continue
        const { when: condition, values } = each as { when?: ValueTest; values?: JsonValue }
        if (condition !== undefined && !holds(condition, parameters)) continue
        if (values === null || typeof values !== 'object' || Array.isArray(values)) throw new Error('a case of chosen values needs its values as an object')
        return values as Record<string, JsonValue>
      }
      throw new Error('no case of the chosen values holds: the last one should have no "when"')
    },
  },
}
