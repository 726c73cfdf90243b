/** Offsets into a text turned into 1-based lines and columns, by binary search over line starts. */
export class TextLines {
  readonly #starts: number[] = [0]

  constructor(text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.#starts.push(at + 1)
  }

  lineOf(offset: number): number {
    let low = 0
    let high = this.#starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((this.#starts[middle] as number) <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }

  columnOf(offset: number): number {
    return offset - (this.#starts[this.lineOf(offset) - 1] as number) + 1
  }
}
