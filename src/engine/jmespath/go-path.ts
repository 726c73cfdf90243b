/**
 * Go's path.Clean and path.Join (filepath's on Linux), which Kyverno uses for
 * path_canonicalize and for resolving `$(../key)` references.
 */

export function cleanGoPath(path: string): string {
  if (path === '') return '.'
  const rooted = path.startsWith('/')
  const kept: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (kept.length > 0 && kept[kept.length - 1] !== '..') kept.pop()
      else if (!rooted) kept.push('..')
      continue
    }
    kept.push(segment)
  }
  const joined = kept.join('/')
  if (rooted) return `/${joined}`
  return joined === '' ? '.' : joined
}

/** path.Join: the non-empty elements joined by '/', cleaned; '' when every element is empty. */
export function joinGoPath(...elements: string[]): string {
  const present = elements.filter((element) => element !== '')
  return present.length === 0 ? '' : cleanGoPath(present.join('/'))
}

export function isAbsoluteGoPath(path: string): boolean {
  return path.startsWith('/')
}
