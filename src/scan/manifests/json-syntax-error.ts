/** Where JSON text first departs from the grammar, and what was expected there. */
export interface JsonSyntaxError {
  offset: number
  reason: string
}

/**
 * JSON.parse names no position for some errors (`Unexpected token '}'`), and the position it does
 * name has no line; this checker walks the grammar only to find the first offending character.
 * It runs only after JSON.parse has refused the text, so it need not be fast.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const reader = new JsonChecker(text)
  try {
    reader.whitespace()
    reader.value()
    reader.whitespace()
    if (reader.at < text.length) reader.fail('unexpected text after the JSON value')
    return undefined
  } catch (error) {
    if (error instanceof JsonFault) return { offset: error.offset, reason: error.message }
    throw error
  }
}

class JsonFault extends Error {
  constructor(
    readonly offset: number,
    reason: string,
  ) {
    super(reason)
  }
}

const LITERALS = ['true', 'false', 'null'] as const
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y

class JsonChecker {
  at = 0

  constructor(readonly text: string) {}

  fail(reason: string): never {
    throw new JsonFault(this.at, reason)
  }

  whitespace(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at] as string)) this.at += 1
  }

  value(): void {
    const char = this.text[this.at]
    if (char === undefined) this.fail('unexpected end of the JSON text')
    if (char === '{') return this.object()
    if (char === '[') return this.array()
    if (char === '"') return this.string()
    if (char === '-' || (char >= '0' && char <= '9')) return this.number()
    for (const literal of LITERALS) {
      if (this.text.startsWith(literal, this.at)) {
        this.at += literal.length
        return
      }
    }
    this.fail(`unexpected ${JSON.stringify(char)}, expected a value`)
  }

  object(): void {
    this.at += 1
    this.whitespace()
    if (this.text[this.at] === '}') {
      this.at += 1
      return
    }
    for (;;) {
      if (this.text[this.at] !== '"') this.fail(this.unexpected('a property name in double quotes'))
      this.string()
      this.whitespace()
      if (this.text[this.at] !== ':') this.fail(this.unexpected("':' after the property name"))
      this.at += 1
      this.whitespace()
      this.value()
      this.whitespace()
      if (this.text[this.at] === '}') {
        this.at += 1
        return
      }
      if (this.text[this.at] !== ',') this.fail(this.unexpected("',' or '}'"))
      this.at += 1
      this.whitespace()
    }
  }

  array(): void {
    this.at += 1
    this.whitespace()
    if (this.text[this.at] === ']') {
      this.at += 1
      return
    }
    for (;;) {
      this.value()
      this.whitespace()
      if (this.text[this.at] === ']') {
        this.at += 1
        return
      }
      if (this.text[this.at] !== ',') this.fail(this.unexpected("',' or ']'"))
      this.at += 1
      this.whitespace()
    }
  }

  string(): void {
    this.at += 1
    for (;;) {
      const char = this.text[this.at]
      if (char === undefined || char === '\n') this.fail('unterminated string')
      if (char === '"') {
        this.at += 1
        return
      }
      if (char < ' ') this.fail('control character in a string')
      if (char === '\\') {
        const escape = this.text[this.at + 1]
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.fail('bad \\u escape')
          this.at += 6
          continue
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) this.fail('bad escape in a string')
        this.at += 2
        continue
      }
      this.at += 1
    }
  }

  number(): void {
    NUMBER.lastIndex = this.at
    const match = NUMBER.exec(this.text)
    if (!match || match[0] === '-') this.fail('bad number')
    this.at += match[0].length
  }

  unexpected(expected: string): string {
    const char = this.text[this.at]
    return char === undefined ? `unexpected end of the JSON text, expected ${expected}` : `unexpected ${JSON.stringify(char)}, expected ${expected}`
  }
}
