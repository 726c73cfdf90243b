import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../errors.js'

/**
 * What the console's pages may do: load the bundle and the style sheet from this origin and call
 * this origin's API, nothing else (no inline script, no other host, no framing).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

interface ConsoleFile {
  body: Buffer
  type: string
}

/**
 * The web console at /ui/ (and / redirects there): the files `make build` writes to
 * dist/console, read once at start and served from memory. Asset names carry a content hash, so
 * they are cached for good; any other path under /ui/ is the single page, which routes itself.
 * Without a build the pages answer 503 saying how to build them; the API is unaffected.
 */
export function consoleRoutes(directory: string = defaultConsoleDirectory()): FastifyPluginAsync {
  return async (app) => {
    const files = readConsole(directory)
    const config = { scope: 'public' as const, outsideApi: true }
    const send = (reply: FastifyReply, file: ConsoleFile, cache: string): FastifyReply =>
      reply
        .header('content-type', file.type)
        .header('cache-control', cache)
        .header('content-security-policy', CONSOLE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .send(file.body)
    const page = (reply: FastifyReply): FastifyReply => {
      const index = files.get('index.html')
      if (!index) throw new ApiError(503, 'console not built', `no console in ${directory}: run \`make build\` (it builds the console with the service)`)
      return send(reply, index, 'no-cache')
    }
    app.get('/', { config }, async (_request, reply) => reply.redirect('/ui/', 302))
    app.get('/ui', { config }, async (_request, reply) => reply.redirect('/ui/', 301))
    app.get('/ui/', { config }, async (_request, reply) => page(reply))
    app.get<{ Params: { '*': string } }>('/ui/*', { config }, async (request, reply) => {
      const path = request.params['*']
      const asset = path.startsWith('assets/') ? files.get(path) : undefined
      if (asset) return send(reply, asset, 'public, max-age=31536000, immutable')
      if (path.startsWith('assets/')) throw ApiError.notFound(`no console asset ${path.slice(0, 200)}`)
      return page(reply)
    })
  }
}

/** dist/console beside the running build (dist/src/...), or the build's when running from the sources (tests). */
function defaultConsoleDirectory(): string {
  const above = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..')
  return basename(above) === 'dist' ? join(above, 'console') : join(above, 'dist', 'console')
}

function readConsole(directory: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>()
  if (!existsSync(join(directory, 'index.html'))) return files
  files.set('index.html', { body: readFileSync(join(directory, 'index.html')), type: TYPES['.html'] as string })
  const assets = join(directory, 'assets')
  if (!existsSync(assets)) return files
  for (const name of readdirSync(assets)) {
    const type = TYPES[extname(name)]
    if (type) files.set(`assets/${name}`, { body: readFileSync(join(assets, name)), type })
  }
  return files
}
