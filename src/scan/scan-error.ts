/**
 * Input the scan cannot use: a manifest that does not parse, definitions that do not fit
 * together, a server that refuses. The command turns it into a usage error (exit 2), so src/scan
 * need not know about the CLI.
 */
export class ScanInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScanInputError'
  }
}
