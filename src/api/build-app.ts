import { readFile } from 'node:fs/promises'
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyLoggerOptions,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify'
import type { LoggerOptions } from 'pino'
import type { Config } from '../config.js'
import { API_VERSION, API_VERSION_HEADER } from './api-version.js'
import { authenticationHook, authorize, type Authenticate } from './auth.js'
import { registerContentTypes } from './content-types.js'
import { ApiError, handleClientError, handleError, handleNotFound } from './errors.js'
import './fastify-types.js'
import { OpenApiDocument } from './openapi-document.js'
import { ANONYMOUS, type Principal } from './principal.js'
import { RateLimiter, rateLimitHook } from './rate-limit.js'
import { refuseUnstorableText } from './refuse-unstorable-text.js'
import { compileValidator } from './schema-validators.js'
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js'
import { openApiRoutes } from './routes/openapi.js'
import { versionRoutes, type VersionInfo } from './routes/version.js'

export interface AppDeps {
  readonly config: Config
  /** Resolves a bearer token to its principal; null for unknown, expired or revoked tokens. */
  readonly authenticate: Authenticate
  /** Route groups, each a plugin declaring full paths (`/api/rulesets/:name`). */
  readonly routes: readonly FastifyPluginAsync[]
  /** Called for every request refused with 429 (metrics). */
  readonly onRateLimited?: () => void
  readonly version: VersionInfo
  /** pino options, or false for no logging; default: JSON logs at `config.logLevel`. */
  readonly logger?: (FastifyLoggerOptions & LoggerOptions) | false
  /** A logger the rest of the process shares; wins over `logger`. */
  readonly loggerInstance?: FastifyBaseLogger
}

/**
 * The REST API's fastify instance, not yet listening. Order matters here: parsers and hooks are
 * set on the root before any route plugin is registered, so every route inherits them.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? { level: config.logLevel } }),
    ...(await tlsOptions(config)),
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // Our own 503 during shutdown, so that one too has the error shape and the headers.
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => {
      stamp(request, reply)
      handleError(error, request, reply)
    },
    clientErrorHandler: handleClientError,
  }) as unknown as FastifyInstance // with `https` fastify types the instance by server class; callers need only the common API

  app.setValidatorCompiler(compileValidator)

  // fastify refuses object defaults (they would be shared by all requests); the first hook sets it.
  app.decorateRequest('principal', null as unknown as Principal)
  app.decorateRequest('bodyFormat', 'json')
  app.decorateRequest('rawBody', '')

  const openApi = new OpenApiDocument('Verdict API')
  // A function, not an arrow: fastify binds `this` to the context declaring the route, whose shared schemas it may use.
  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    if (route.config?.scope === undefined) {
      throw new Error(`route ${String(route.method)} ${route.url} declares no config.scope (a scope, 'any' or 'public')`)
    }
    openApi.record(route, this.getSchemas())
  })

  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (request, reply) => {
    stamp(request, reply)
    if (closing) throw new ApiError(503, 'service unavailable', 'the server is shutting down; retry', { connection: 'close' })
  })
  app.addHook('onRequest', authenticationHook(deps.authenticate))
  app.addHook('onRequest', rateLimitHook(new RateLimiter({ rate: config.rateLimit, burst: config.rateBurst }), deps.onRateLimited))
  app.addHook('onRequest', authorize)
  registerContentTypes(app)
  app.addHook('preValidation', refuseUnstorableText)
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(handleNotFound)

  await app.register(versionRoutes, deps.version)
  await app.register(openApiRoutes, { document: () => openApi.build() })
  for (const routes of deps.routes) await app.register(routes)
  return app
}

/** Every response, errors and 404s included, says which API answered and which request it was. */
function stamp(request: FastifyRequest, reply: FastifyReply): void {
  request.principal = ANONYMOUS
  reply.header(API_VERSION_HEADER, API_VERSION)
  reply.header(REQUEST_ID_HEADER, request.id)
}

async function tlsOptions(config: Config): Promise<{ https?: { cert: Buffer; key: Buffer } }> {
  if (config.apiTlsCertFile === undefined || config.apiTlsKeyFile === undefined) return {}
  const [cert, key] = await Promise.all([readFile(config.apiTlsCertFile), readFile(config.apiTlsKeyFile)])
  return { https: { cert, key } }
}
