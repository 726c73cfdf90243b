// Builds the console (console/src, Preact) into dist/console: the entry script, the chunks it loads
// later (the chart library), one style sheet, all with content hashes in their names, and
// index.html naming the entry, with no inline script, so the strict Content-Security-Policy the
// service sends holds. `make build` runs it; the service serves dist/console at /ui/
// (src/api/routes/console.ts).
import { build } from 'esbuild'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist', 'console')

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const result = await build({
  entryPoints: { app: join(root, 'console', 'src', 'main.tsx') },
  bundle: true,
  splitting: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: out,
  entryNames: 'assets/[name]-[hash]',
  chunkNames: 'assets/chunk-[hash]',
  assetNames: 'assets/[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
})

const outputs = Object.entries(result.metafile.outputs).map(([path, output]) => ({ file: relative(out, join(root, path)), ...output }))
const entry = outputs.find((output) => output.entryPoint !== undefined && output.file.endsWith('.js'))
const style = outputs.find((output) => output.file.endsWith('.css'))
if (!entry || !style) throw new Error('the console build made no entry script or style sheet')
const html = readFileSync(join(root, 'console', 'index.html'), 'utf8').replace('{{script}}', `/ui/${entry.file}`).replace('{{style}}', `/ui/${style.file}`)
writeFileSync(join(out, 'index.html'), html)
// The sizes the build prints; test/console/bundle-budget.test.ts measures the files itself.
const size = (file) => ({ file, bytes: readFileSync(join(out, file)).length, gzipBytes: gzipSync(readFileSync(join(out, file))).length })
const manifest = { entry: size(entry.file), style: size(style.file), chunks: outputs.filter((output) => output.file.endsWith('.js') && output !== entry).map((output) => size(output.file)) }
writeFileSync(join(out, 'build-manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
console.log(`console: ${[manifest.entry, manifest.style, ...manifest.chunks].map((entry) => `${entry.file} ${entry.bytes} bytes (${entry.gzipBytes} gzipped)`).join(', ')}`)
