/**
 * Many texts sent to PostgreSQL as one bytea parameter, each then cut out by the statement with
 * `convert_from(substring($n FROM offset FOR length), 'UTF8')`. Sent in a text[] array instead,
 * every document would be escaped quote by quote on the way out (pg's array literal) and parsed
 * character by character on the way in (array_in): for audit inputs, kilobytes of JSON full of
 * quotes, that was a tenth of the service's CPU per durable evaluation and as much of
 * PostgreSQL's. A Buffer goes as a binary parameter: copied, never escaped or parsed.
 */
export class TextPayload {
  readonly #parts: string[] = []
  #bytes = 0

  /** Adds `text`; returns its 1-based byte offset and byte length, as substring() takes them. */
  add(text: string): { offset: number; length: number } {
    const length = Buffer.byteLength(text, 'utf8')
    const offset = this.#bytes + 1
    this.#parts.push(text)
    this.#bytes += length
    return { offset, length }
  }

  /** Everything added, UTF-8 encoded in one buffer; each text encoded alone, so offsets hold whatever the texts hold. */
  toBuffer(): Buffer {
    const buffer = Buffer.allocUnsafe(this.#bytes)
    let at = 0
    for (const part of this.#parts) at += buffer.write(part, at, 'utf8')
    return buffer
  }
}
