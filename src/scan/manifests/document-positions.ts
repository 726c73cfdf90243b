import { EVENT_ID, getScalarValue, type Event } from 'js-yaml'

/** Where a document's root node starts, and for a List the start of each of its `items`. */
export interface DocumentPosition {
  /** Offset of the root node (its anchor or tag when it has one); undefined for an empty document. */
  start: number | undefined
  itemStarts: number[] | undefined
}

/**
 * Reads node offsets from the parser's event stream, one entry per document in stream order, the
 * order in which the documents are constructed. Only the root and the items of a root `items`
 * sequence are located: that is all a result needs, and it costs one pass with no tree built.
 */
export function documentPositions(events: readonly Event[], source: string): DocumentPosition[] {
  const positions: DocumentPosition[] = []
  let at = 0
  while (at < events.length) {
    const event = events[at] as Event
    if (event.type !== EVENT_ID.DOCUMENT) {
      at += 1
      continue
    }
    const root = at + 1
    positions.push({ start: nodeStart(events[root]), itemStarts: itemStartsOf(events, root, source) })
    at = skipNode(events, root)
  }
  return positions
}

function itemStartsOf(events: readonly Event[], root: number, source: string): number[] | undefined {
  if (events[root]?.type !== EVENT_ID.MAPPING) return undefined
  let at = root + 1
  while (at < events.length && events[at]?.type !== EVENT_ID.POP) {
    const key = events[at] as Event
    const value = skipNode(events, at)
    if (key.type === EVENT_ID.SCALAR && getScalarValue(source, key) === 'items' && events[value]?.type === EVENT_ID.SEQUENCE) {
      const starts: number[] = []
      for (let item = value + 1; item < events.length && events[item]?.type !== EVENT_ID.POP; item = skipNode(events, item)) {
        starts.push(nodeStart(events[item]) ?? -1)
      }
      return starts
    }
    at = skipNode(events, value)
  }
  return undefined
}

/** The index just past the node that starts at `at` (a scalar or alias, or a collection up to its POP). */
function skipNode(events: readonly Event[], at: number): number {
  const first = events[at]
  if (first === undefined) return at
  if (first.type !== EVENT_ID.MAPPING && first.type !== EVENT_ID.SEQUENCE && first.type !== EVENT_ID.DOCUMENT) return at + 1
  let depth = 0
  for (let index = at; index < events.length; index += 1) {
    const type = (events[index] as Event).type
    if (type === EVENT_ID.MAPPING || type === EVENT_ID.SEQUENCE || type === EVENT_ID.DOCUMENT) depth += 1
    else if (type === EVENT_ID.POP) {
      depth -= 1
      if (depth === 0) return index + 1
    }
  }
  return events.length
}

function nodeStart(event: Event | undefined): number | undefined {
  if (event === undefined) return undefined
  let starts: number[]
  if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) starts = [event.start, event.anchorStart, event.tagStart]
  else if (event.type === EVENT_ID.SCALAR) starts = [event.valueStart, event.anchorStart, event.tagStart]
  else if (event.type === EVENT_ID.ALIAS) starts = [event.anchorStart]
  else return undefined
  const known = starts.filter((offset) => offset >= 0)
  return known.length === 0 ? undefined : Math.min(...known)
}
