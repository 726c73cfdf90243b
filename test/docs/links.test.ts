import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))]

/** The text of a Markdown page without its fenced code blocks and inline code, where brackets are not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces to `-`; repeats get `-1`, `-2`. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*`~]/g, '')
    .trim()
    .toLowerCase()
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(match[1] ?? '')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '')
  return anchors
}

interface Link {
  readonly page: string
  readonly target: string
}

function linksOf(page: string): Link[] {
  const text = prose(readFileSync(join(root, page), 'utf8'))
  const targets = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? ''),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1] ?? ''),
  ]
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).map((target) => ({ page, target }))
}

/** Why a relative link does not resolve, or undefined when it does. */
function problemOf({ page, target }: Link): string | undefined {
  const [path = '', anchor] = target.split('#', 2)
  const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path))
  if (!existsSync(file)) return `${page}: ${target}: ${relative(root, file)} does not exist`
  if (anchor === undefined || anchor === '') return undefined
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${page}: ${target}: an anchor into a file that is not Markdown`
  if (!anchorsOf(file).has(decodeURIComponent(anchor))) return `${page}: ${target}: no heading of ${relative(root, file)} has the anchor #${anchor}`
  return undefined
}

describe('links of README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/api.md')
    expect(pages.flatMap(linksOf).length).toBeGreaterThan(20)
  })

  it.each(pages)('every relative link and anchor of %s resolves', (page) => {
    expect(linksOf(page).map(problemOf).filter((problem) => problem !== undefined)).toEqual([])
  })

  it('links every page of docs/ from the README', () => {
    const linked = new Set(linksOf('README.md').map(({ target }) => target.split('#')[0]))
    expect(pages.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([])
  })
})

describe('githubSlug', () => {
  it.each([
    ['A five-minute tour', 'a-five-minute-tour'],
    ['Why the service runs with 8 MB semi-spaces', 'why-the-service-runs-with-8-mb-semi-spaces'],
    ['Importing Kyverno and ValidatingAdmissionPolicy', 'importing-kyverno-and-validatingadmissionpolicy'],
    ['verdict scan', 'verdict-scan'],
    ['The `make test` suite', 'the-make-test-suite'],
    ['Scopes, tokens & errors', 'scopes-tokens--errors'],
    ['snake_case names', 'snake_case-names'],
  ])('%s -> %s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug)
  })
})
