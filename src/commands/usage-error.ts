/** Bad input on the command line or in a file: the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const EXIT_OK = 0
export const EXIT_VIOLATIONS = 1
export const EXIT_BAD_INPUT = 2
