/**
 * A list of keys under a head that names the map they belong to:
 *
 *   every aws_instance and aws_s3_bucket must carry these tags:
 *     Owner       - an email address
 *     CostCentre  - exactly 5 digits
 *
 * Each item is a key and what its value must be. It is read as the sentence it abbreviates
 * ("for every aws_instance and aws_s3_bucket, the tag Owner must be an email address"), so the
 * ordinary readers of fields, predicates and subjects take it from there.
 */

/** The head's collection noun: which map the keys belong to (tags, labels, annotations) or none for plain keys. */
const COLLECTION = /\b(?:these|the following|following|the|all|required|mandatory|some|three|two|four|five)?\s*(tags?|labels?|annotations?|keys?|fields?|settings?|attributes?|properties|entries)\s*:?\s*$/i

const ASKING = /\b(must|mustn'?t|has to|have to|needs?|should|shall|is required|are required|required|mandatory|can'?t|cannot|may not|never)\b/i

/** "Owner - an email address", "`team`: one of a, b", "CostCentre = 5 digits", "owner". */
const KEY_ITEM = /^[`"']?([A-Za-z][\w./-]*)[`"']?\s*(?:(?:-|:|=|–|—)\s+(.+))?$/

/** "`cost-centre` in the form cc-NNNN": a quoted key, then what its value must be without a separator. */
const QUOTED_KEY_ITEM = /^`([A-Za-z][\w./-]*)`\s+(\S.*)$/

const NOUN: Readonly<Record<string, string>> = { tag: 'tag', label: 'label', annotation: 'annotation' }

/** The sentence a key item under `head` stands for, or undefined when the item is not a key of a named map. */
export function keyItemSentence(written: string, item: string): string | undefined {
  // "Pods must carry these labels — for a Deployment that means the template's labels:": the remark after the dash is not the head.
  const head = written.replace(/:\s*$/, '').split(/\s+[—–-]\s+|;\s+/)[0] ?? written
  const collection = COLLECTION.exec(head)
  if (!collection?.[1]) return undefined
  const match = KEY_ITEM.exec(item.trim().replace(/[.;]$/, '')) ?? QUOTED_KEY_ITEM.exec(item.trim().replace(/[.;]$/, ''))
  if (!match?.[1]) return undefined
  const key = match[1]
  const spec = (match[2] ?? '').trim()
  // An item that is a sentence of its own ("Owner must be an email") names its key and says its predicate already.
  if (spec === '' && /\s/.test(item.trim())) return undefined
  const noun = NOUN[collection[1].toLowerCase().replace(/s$/, '')]
  const asking = ASKING.exec(head)
  // "Tagging standard: every aws_instance must carry these tags": the subject is what the asking verb follows.
  const subject = asking ? (head.slice(0, asking.index).split(/:\s+/).pop() ?? '').trim().replace(/,$/, '') : ''
  const field = noun ? `the ${noun} ${key}` : key
  const predicate = spec === '' || /^(?:required|mandatory|set|non-empty|present)$/i.test(spec) ? 'must be set' : ASKING.test(spec.split(/\s+/).slice(0, 3).join(' ')) ? spec : `must be ${spec.replace(/^(?:is|be)\s+/i, '')}`
  return `${subject ? `For ${subject}, ` : ''}${field} ${predicate}`
}

