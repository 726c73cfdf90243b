/**
 * The line (1-based) of a YAML document that an API error is about, for the editor to point at:
 * a parser error says `at line N`; a field error names a path (`body.rules[0].severty: ...`),
 * followed key by key and item by item through the indentation. Undefined when the message names
 * neither; when a path goes deeper than the text (a flow list, a missing key), the deepest line
 * found.
 */
export function lineOfError(yaml: string, details: string): number | undefined {
  const parser = /\bat line (\d+), column \d+/.exec(details)
  if (parser) return Number(parser[1])
  // A compile error names the rule after its index (`rules[0] (rule "x").validate...`): the path is what is left without it.
  const path = /^body\.([^\s:(]+)/.exec(details.replace(/ \(rule "(?:[^"\\]|\\.)*"\)/g, ''))
  if (!path) return undefined
  return lineOfPath(yaml, path[1] as string)
}

type Segment = { key: string } | { index: number }

export function lineOfPath(yaml: string, path: string): number | undefined {
  const lines = yaml.split('\n')
  const segments: Segment[] = []
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) segments.push(match[2] !== undefined ? { index: Number(match[2]) } : { key: match[1] as string })
  // Where the current node starts, and the column its own key (or dash) sits at: its children are deeper.
  let from = 0
  let column = -1
  let found: number | undefined
  for (const segment of segments) {
    const hit = 'key' in segment ? findKey(lines, from, column, segment.key) : findItem(lines, from, column, segment.index)
    if (!hit) break
    found = hit.line
    // A key's value starts on the next line; an item's first key may share the dash's line.
    from = 'key' in segment ? hit.line + 1 : hit.line
    column = hit.column
  }
  return found === undefined ? undefined : found + 1
}

/** A key among the direct children of the node starting at `from` (its own key or dash at `column`). */
function findKey(lines: string[], from: number, column: number, key: string): { line: number; column: number } | undefined {
  let childColumn: number | undefined
  for (let line = from; line < lines.length; line++) {
    const text = lines[line] as string
    const content = text.trimStart()
    if (content === '' || content.startsWith('#')) continue
    const indent = text.length - content.length
    // Back at or before the node's column: its block has ended (the item's own dash line aside).
    if (line !== from && indent <= column) return undefined
    let keyColumn = indent
    let rest = content
    while (rest.startsWith('- ')) {
      const after = rest.slice(2).trimStart()
      keyColumn += rest.length - after.length
      rest = after
    }
    childColumn ??= keyColumn
    if (keyColumn === childColumn && (rest.startsWith(`${key}:`) || rest.startsWith(`"${key}":`) || rest.startsWith(`'${key}':`))) return { line, column: keyColumn }
  }
  return undefined
}

/** The `index`th item of the block sequence that is the value of the key at `column`, starting at `from`. */
function findItem(lines: string[], from: number, column: number, index: number): { line: number; column: number } | undefined {
  let itemColumn: number | undefined
  let seen = -1
  for (let line = from; line < lines.length; line++) {
    const text = lines[line] as string
    const content = text.trimStart()
    if (content === '' || content.startsWith('#')) continue
    const indent = text.length - content.length
    const isItem = content === '-' || content.startsWith('- ')
    // A block sequence may sit at its key's own column (`rules:` with `- name:` right under it).
    if (indent < column || (indent === column && !isItem)) return undefined
    if (!isItem) continue
    itemColumn ??= indent
    if (indent < itemColumn) return undefined
    if (indent > itemColumn) continue
    seen++
    if (seen === index) return { line, column: indent }
  }
  return undefined
}
