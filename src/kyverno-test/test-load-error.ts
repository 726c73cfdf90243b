/** A test whose files cannot be read as the Kyverno CLI reads them: the message starts with the file. */
export class TestLoadError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`)
    this.name = 'TestLoadError'
  }
}
