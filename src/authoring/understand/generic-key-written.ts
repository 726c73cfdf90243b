import type { Requirement, ValueRef } from './requirement.js'

/**
 * A document without a schema has no field names to find words in: a key is what the author
 * wrote as one (in backticks or quotes, with `:` or `=` after it, or spelled as a key:
 * `snake_case`, `camelCase`, `dotted.path`). "no ranges, no `latest`" read as a ban of a key
 * `ranges`, or "nothing bad" as a ban of `bad`, judges a key no document has, so it passes
 * everything while the requirement meant is dropped. A ban of a key never written as one is
 * refused, naming it.
 */
export function bannedKeyNotWritten(requirement: Requirement, text: string): string | undefined {
  if (requirement.subject.platform !== 'generic' || requirement.predicate.op !== 'unset') return undefined
  const unwritten = requirement.values.find((ref) => !writtenAsKey(ref, text))
  if (!unwritten) return undefined
  const name = unwritten.variants[0]?.segments.join('.') ?? unwritten.label
  return `it bans \`${name}\`, a word of the sentence, not a key written as one; which key must not be set? write it in backticks, e.g. \`${name}\``
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function writtenAsKey(ref: ValueRef, text: string): boolean {
  return ref.variants.some((variant) => {
    const path = variant.segments.filter((segment) => segment !== '[]')
    const name = path.join('.')
    const leaf = path.at(-1) ?? ''
    // A path is written as a path ("docker actions" made into `docker.actions` is not).
    if (path.length > 1) return text.includes(name)
    if (/[_A-Z.-]/.test(leaf.slice(1)) || /[_.-]/.test(leaf)) return new RegExp(String.raw`(?<![\w.-])${escape(leaf)}(?![\w-])`).test(text)
    // `docker://...` is a scheme, not the key `docker`.
    return new RegExp(String.raw`[\`"']${escape(leaf)}[\`"']|(?<![\w.-])${escape(leaf)}\s*[:=](?!\/\/)`).test(text)
  })
}
