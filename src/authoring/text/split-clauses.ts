/**
 * Splits an instruction into clauses. Hard breaks (new lines, bullets, numbered items,
 * semicolons, sentence ends) always separate; soft ones (commas, "and", "also", "but") only
 * where both sides ask for different things, which the compiler decides: "labels team and
 * cost-center" stays one clause because "cost-center" alone asks for nothing.
 */
export function hardClauses(instruction: string): string[] {
  return instruction
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•·]|\d+[.)])\s+/, ''))
    .flatMap((line) => line.split(/;|(?<=[A-Za-z0-9)"'`\]])\.(?=\s+[A-Za-z]|\s*$)/))
    .map((part) => part.trim())
    .filter((part) => /[a-z0-9]/i.test(part))
}

export interface SoftPiece {
  text: string
  /** The words that joined it to the previous piece (", ", " and "), empty for the first. */
  joiner: string
}

// "Nothing but the default": "but" after nothing, none or all means "except", and joins no second clause.
const SOFT_BREAK = /(\s*,\s*(?:and\s+|also\s+|but\s+|plus\s+)?|\s+(?:and also|and|also|as well as|plus|(?<!\b(?:nothing|none|all|anything|everything|no one|nobody)\s+)but|while)\s+)/i

/** The pieces of a clause at each soft break, with the joiners, so merged pieces read as written. */
export function softPieces(clause: string): SoftPiece[] {
  const parts = clause.split(SOFT_BREAK)
  const pieces: SoftPiece[] = []
  let joiner = ''
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] ?? ''
    if (index % 2 === 1) {
      joiner = part
      continue
    }
    if (part.trim().length === 0) {
      joiner += part
      continue
    }
    pieces.push({ text: part.trim(), joiner: pieces.length === 0 ? '' : joiner })
    joiner = ''
  }
  return pieces
}
