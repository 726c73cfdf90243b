import { checkExceptionSpec, compileExceptions, ExceptionCompileError, type CompiledException, type PolicyException } from '../engine/index.js'
import { importExceptionDocuments, ImportError, isKyvernoException } from '../import/index.js'
import { TestLoadError } from './test-load-error.js'

/**
 * A test's `exceptions:` files as the Kyverno CLI loads them (cmd/cli/kubectl-kyverno/exception):
 * every document must be a PolicyException (kyverno.io/v2 or v2beta1, policies.kyverno.io), else
 * the test does not load. Each is imported into Verdict's model as `verdict import` does; a test
 * file carries no reason, so the reason says where the exception came from. One that cannot be
 * translated stops the test with the importer's message, never judged without it.
 */
export function loadTestExceptions(paths: readonly string[], testFile: string, readAll: (path: string) => unknown[]): CompiledException[] {
  const exceptions: PolicyException[] = []
  for (const path of paths) {
    const documents = readAll(path)
    documents.forEach((document, index) => {
      if (!isKyvernoException(document)) throw new TestLoadError(path, `document ${index + 1} is not a Kyverno PolicyException (kyverno.io/v2, v2beta1 or policies.kyverno.io)`)
    })
    try {
      for (const imported of importExceptionDocuments(documents, { reason: `listed in the Kyverno test ${testFile}` })) {
        const { name, ...spec } = imported.exception
        const problems = checkExceptionSpec(spec, 'spec')
        if (problems.length > 0) throw new TestLoadError(path, `PolicyException "${name}" translates to an invalid exception: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`)
        exceptions.push(imported.exception)
      }
    } catch (error) {
      if (error instanceof ImportError) throw new TestLoadError(path, error.message)
      throw error
    }
  }
  const seen = new Set<string>()
  for (const { name } of exceptions) {
    if (seen.has(name)) throw new TestLoadError(testFile, `two PolicyExceptions are named "${name}"`)
    seen.add(name)
  }
  try {
    return compileExceptions(exceptions)
  } catch (error) {
    if (error instanceof ExceptionCompileError) throw new TestLoadError(testFile, error.message)
    throw error
  }
}
