import { trimGoSpace } from './go-text.js'

/**
 * The anchors a pattern key may carry, as Kyverno spells them:
 * `(key)` conditional, `<(key)` global, `X(key)` negation, `=(key)` equality, `^(key)` existence,
 * and `+(key)`, which belongs to mutate overlays and is refused in validate patterns.
 */
export type AnchorKind = 'condition' | 'global' | 'negation' | 'equality' | 'existence' | 'addIfNotPresent'

export interface Anchor {
  kind: AnchorKind
  /** The field the anchor names: `name` for `=(name)`. */
  key: string
}

const MODIFIERS: Readonly<Record<string, AnchorKind>> = {
  '': 'condition',
  '<': 'global',
  X: 'negation',
  '=': 'equality',
  '^': 'existence',
  '+': 'addIfNotPresent',
}

// Go's `.` stops at a newline only, so the key part is "anything but \n", at least one character.
const ANCHOR = /^([+<=X^]?)\(([^\n]+)\)$/

/** The anchor a pattern key carries, or undefined for a plain key. Surrounding spaces are ignored, as Kyverno does. */
export function parseAnchor(key: string): Anchor | undefined {
  const match = ANCHOR.exec(trimGoSpace(key))
  if (!match) return undefined
  const kind = MODIFIERS[match[1] ?? '']
  const inner = match[2]
  if (kind === undefined || inner === undefined || inner === '') return undefined
  return { kind, key: inner }
}

const PREFIX: Readonly<Record<AnchorKind, string>> = {
  condition: '',
  global: '<',
  negation: 'X',
  equality: '=',
  existence: '^',
  addIfNotPresent: '+',
}

/** The key text of an anchor: `=(name)`. */
export function anchorText(anchor: Anchor): string {
  return `${PREFIX[anchor.kind]}(${anchor.key})`
}
