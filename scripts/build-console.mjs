// Builds the console (console/src, Preact) into dist/console: one JavaScript bundle and one style
// sheet with content hashes in their names, and index.html naming them, with no inline script, so
// the strict Content-Security-Policy the service sends holds. `make build` runs it; the service
// serves dist/console at /ui/ (src/api/routes/console.ts).
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist', 'console')

const result = await build({
  entryPoints: [join(root, 'console', 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  write: false,
  outdir: out,
  entryNames: 'app',
  legalComments: 'none',
  logLevel: 'warning',
})

rmSync(out, { recursive: true, force: true })
mkdirSync(join(out, 'assets'), { recursive: true })
const names = {}
for (const file of result.outputFiles) {
  const extension = file.path.endsWith('.css') ? 'css' : 'js'
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12)
  const name = `assets/app-${hash}.${extension}`
  writeFileSync(join(out, name), file.contents)
  names[extension] = name
}
const html = readFileSync(join(root, 'console', 'index.html'), 'utf8').replace('{{script}}', `/ui/${names.js}`).replace('{{style}}', `/ui/${names.css}`)
writeFileSync(join(out, 'index.html'), html)
// What the bundle-size test reads: the first screen's JavaScript, gzipped.
const sizes = Object.fromEntries(Object.entries(names).map(([kind, name]) => [kind, { file: name, bytes: readFileSync(join(out, name)).length, gzipBytes: gzipSync(readFileSync(join(out, name))).length }]))
writeFileSync(join(out, 'build-manifest.json'), `${JSON.stringify(sizes, null, 2)}\n`)
console.log(`console: ${Object.values(sizes).map((entry) => `${entry.file} ${entry.bytes} bytes (${entry.gzipBytes} gzipped)`).join(', ')}`)
