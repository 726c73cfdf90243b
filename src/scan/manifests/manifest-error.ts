import { ScanInputError } from '../scan-error.js'

/** A manifest file that does not parse, named by file, line and column as editors and CI logs link them. */
export class ManifestError extends ScanInputError {
  readonly file: string
  readonly line: number | undefined

  constructor(file: string, line: number | undefined, column: number | undefined, problem: string) {
    const where = line === undefined ? file : column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`
    super(`${where}: ${problem}`)
    this.name = 'ManifestError'
    this.file = file
    this.line = line
  }
}
