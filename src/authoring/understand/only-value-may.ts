import type { ClauseContext } from './read-clause.js'
import { fieldsIn } from './read-clause.js'
import type { Requirement } from './requirement.js'

/**
 * "Only the Default procMount may be used", "Nothing but the `RuntimeDefault` seccomp type can be
 * specified", "nothing other than Default procMount is allowed": the value named before the field
 * is the only one it may take. An unset field names no value, so it passes. The value is a value
 * of the field's enum as the schema spells it (matched without case: "the default procMount" is
 * `Default`), or one written as code or in quotes; any other word is not a value, and the sentence
 * is left to the other readers.
 */
const ONLY_VALUE_MAY = /^\W*(?:(?:and|but|so)\s+)?(?:only|nothing\s+(?:but|other\s+than|except))\s+(?:an?\s+|the\s+)?(?:`([^`]+)`|"([^"]+)"|'([^']+)'|([A-Za-z][\w-]*))\s+(.+?)\s+(?:(?:may|can|shall)\s+be\s+(?:used|specified|set|configured|requested|chosen|selected)|(?:is|are)\s+(?:allowed|permitted|accepted))\s*[.;!]?\s*$/i

export function readOnlyValueMay(text: string, context: ClauseContext): Requirement[] | undefined {
  const match = ONLY_VALUE_MAY.exec(text)
  if (!match) return undefined
  const written = match[1] ?? match[2] ?? match[3]
  const word = match[4]
  const fieldWords = match[5] ?? ''
  const refs = fieldsIn(fieldWords, context)
  const [ref] = refs
  if (refs.length !== 1 || !ref) return undefined
  const value = written ?? ref.enum?.find((allowed) => allowed.toLowerCase() === word?.toLowerCase())
  if (value === undefined || (ref.enum && !ref.enum.includes(value))) return undefined
  return [
    {
      sentence: text,
      subject: { platform: context.platform, kinds: [...context.kinds] },
      values: [ref],
      predicate: { op: 'oneOf', values: [value] },
      combine: 'all',
      missing: 'pass',
      conditions: [],
      exemptions: [],
    },
  ]
}
