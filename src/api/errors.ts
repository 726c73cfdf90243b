import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { API_VERSION, API_VERSION_HEADER } from './api-version.js'
import { acceptedMediaTypes } from './media-types.js'
import { describeValidationErrors } from './validation-message.js'
import { nodeHttp } from '../server/node-http.js'

const { STATUS_CODES } = nodeHttp

/**
 * An error a client can act on. Services and routes throw it; the one error handler below
 * turns it (and every other error) into `{error, details}` with its status and headers.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${error}: ${details}`)
    this.name = 'ApiError'
  }

  static badRequest(details: string): ApiError {
    return new ApiError(400, 'bad request', details)
  }

  static forbidden(details: string): ApiError {
    return new ApiError(403, 'forbidden', details)
  }

  static notFound(details: string): ApiError {
    return new ApiError(404, 'not found', details)
  }

  static conflict(details: string): ApiError {
    return new ApiError(409, 'conflict', details)
  }
}

export interface ErrorBody {
  error: string
  details: string
}

/** Short messages for the statuses fastify itself produces; others fall back to the HTTP reason phrase. */
const ERROR_NAMES: Record<number, string> = {
  400: 'bad request',
  404: 'not found',
  409: 'conflict',
  413: 'payload too large',
  415: 'unsupported media type',
  500: 'internal error',
  503: 'service unavailable',
}

function errorName(status: number): string {
  return ERROR_NAMES[status] ?? (STATUS_CODES[status] ?? 'error').toLowerCase()
}

/** What reaches the error handler: anything a hook, parser, handler or serializer threw. */
export type ThrownError = Error | FastifyError

/**
 * Errors of the services and the store (src/services/service-errors.ts, src/store/store-errors.ts)
 * by name: they must not know HTTP, and this module need not import them. With a `details` string
 * the message is the short `error`; without one the message is the detail.
 */
const STATUS_BY_ERROR_NAME: Readonly<Record<string, number>> = {
  InvalidRequestError: 400,
  ForbiddenError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  AlreadyExistsError: 409,
  StillReferencedError: 409,
}

function fromNamedError(thrown: Error): ApiError | undefined {
  if (thrown.name === 'StoreUnavailableError') return new ApiError(503, 'service unavailable', 'the store is unavailable; retry later')
  const status = Object.hasOwn(STATUS_BY_ERROR_NAME, thrown.name) ? STATUS_BY_ERROR_NAME[thrown.name] : undefined
  if (status === undefined) return undefined
  const details = (thrown as { details?: unknown }).details
  if (typeof details !== 'string') return new ApiError(status, errorName(status), thrown.message)
  return new ApiError(status, thrown.message, details, status === 403 ? insufficientScope((thrown as { scopes?: unknown }).scopes) : {})
}

/** RFC 6750's answer to a token without the scope asked for, as the route check gives it. */
export function insufficientScope(scopes: unknown): Record<string, string> {
  const named = Array.isArray(scopes) && scopes.length > 0 ? `, scope="${scopes.join(' ')}"` : ''
  return { 'www-authenticate': `Bearer error="insufficient_scope"${named}` }
}

function toApiError(thrown: ThrownError, request: FastifyRequest): ApiError | undefined {
  if (thrown instanceof ApiError) return thrown
  const named = fromNamedError(thrown)
  if (named) return named
  const framework = thrown as Partial<FastifyError>
  if (framework.validation) {
    const context = framework.validationContext ?? 'request'
    const details =
      context === 'body' && request.body === undefined ? 'body is required' : describeValidationErrors(framework.validation, context)
    return ApiError.badRequest(details)
  }
  switch (framework.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload too large', `request body exceeds the limit of ${request.routeOptions.bodyLimit} bytes`)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(request)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ApiError.badRequest('request body length does not match the Content-Length header')
    case 'FST_ERR_BAD_URL':
      return ApiError.badRequest(`path: ${shownPath(request)} is not a valid url component: a percent-escape is incomplete or not UTF-8 text`)
  }
  const status = framework.statusCode
  if (typeof framework.code === 'string' && framework.code.startsWith('FST_') && status !== undefined && status >= 400 && status < 500) {
    return new ApiError(status, errorName(status), thrown.message)
  }
  return undefined
}

export function unsupportedMediaType(request: FastifyRequest): ApiError {
  const sent = request.headers['content-type']
  const accepted = acceptedMediaTypes(request.routeOptions.config.acceptsYaml === true)
  const what = sent === undefined ? 'a body without Content-Type' : `Content-Type ${sent}`
  return new ApiError(415, 'unsupported media type', `${what} is not supported; send ${accepted.join(', ')}`)
}

/** The one error handler: every failure of every route leaves through here as `{error, details}`. */
export function handleError(thrown: ThrownError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toApiError(thrown, request)
  if (known) {
    if (thrown.name === 'StoreUnavailableError') request.log.warn({ err: thrown }, 'store unavailable')
    return reply.code(known.status).headers(known.headers).send({ error: known.error, details: known.details } satisfies ErrorBody)
  }
  request.log.error({ err: thrown }, 'unhandled error')
  return reply.code(500).send({ error: errorName(500), details: `request id ${request.id}` } satisfies ErrorBody)
}

/** Unknown routes answer 404 without asking for a token: there is nothing to protect and the 404 says so. */
export function handleNotFound(request: FastifyRequest): never {
  throw ApiError.notFound(`no route ${request.method} ${shownPath(request)}`)
}

/** The request's path without its query, cut short enough to quote in a message. */
function shownPath(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0] ?? ''
  return path.length > 200 ? `${path.slice(0, 200)}...` : path
}

/**
 * Requests too broken for fastify to route (bad HTTP, oversized headers, timeouts) are answered
 * on the socket; the answer still has the error shape and the version header.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const details = status === 408 ? 'the request took too long to arrive' : status === 431 ? 'the request headers are too large' : 'malformed HTTP request'
  const body = JSON.stringify({ error: errorName(status), details } satisfies ErrorBody)
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${API_VERSION_HEADER}: ${API_VERSION}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}
