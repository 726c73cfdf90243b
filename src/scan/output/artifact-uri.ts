import { isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * A file as a SARIF artifactLocation.uri: relative to the directory the scan ran in, with `/`
 * separators and each segment percent-encoded, which is how GitHub code scanning finds the file
 * in the repository checkout. Standard input has no file; its stand-in name passes through.
 */
export function artifactUri(file: string, cwd: string, stdinName: string): string {
  if (file === stdinName) return stdinName
  const path = relative(cwd, isAbsolute(file) ? file : resolve(cwd, file))
  return path.split(sep).map(encodeURIComponent).join('/')
}
