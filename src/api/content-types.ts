import * as yaml from 'js-yaml'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { describeDepthExcess, findDepthExcess } from '../engine/index.js'
import { ApiError, unsupportedMediaType } from './errors.js'
import { JSON_MEDIA_TYPES, YAML_MEDIA_TYPES } from './media-types.js'

export type BodyFormat = 'json' | 'yaml'

/**
 * YAML 1.2 core types and nothing else (no !!binary, no custom tags), plus `<<` merge keys so a
 * manifest that `verdict eval` and `kubectl apply` read is read the same way here.
 */
const YAML_SCHEMA = yaml.CORE_SCHEMA.withTags(yaml.mergeTag)

/**
 * JSON on every route, YAML on routes with `config.acceptsYaml`; anything else is a 415 (fastify's
 * text/plain parser is removed). Both keep the text as sent in `request.rawBody` and the format in
 * `request.bodyFormat`. An empty body parses to undefined, so a route that needs one says
 * "body is required" through its schema.
 */
export function registerContentTypes(app: FastifyInstance): void {
  const secureJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser([...JSON_MEDIA_TYPES], { parseAs: 'string' }, (request, text: string, done) => {
    if (request.is404) return done(null, undefined)
    keepRaw(request, text, 'json')
    if (text.trim() === '') return done(null, undefined)
    secureJson(request, text, (error, value) => {
      if (error) return done(jsonError(text), undefined)
      const tooDeep = depthError(value)
      return tooDeep ? done(tooDeep, undefined) : done(null, value)
    })
  })
  app.addContentTypeParser([...YAML_MEDIA_TYPES], { parseAs: 'string' }, (request, text: string, done) => {
    if (request.is404) return done(null, undefined)
    if (request.routeOptions.config.acceptsYaml !== true) throw unsupportedMediaType(request)
    keepRaw(request, text, 'yaml')
    done(null, parseYaml(text, request.routeOptions.bodyLimit))
  })
}

function keepRaw(request: FastifyRequest, text: string, format: BodyFormat): void {
  request.rawBody = text
  request.bodyFormat = format
}

/** Only reached when the secure parser refused the text: say why, in JSON.parse's words when it has any. */
function jsonError(text: string): ApiError {
  try {
    JSON.parse(text)
  } catch (error) {
    return ApiError.badRequest(`body is not valid JSON: ${(error as SyntaxError).message}`)
  }
  return ApiError.badRequest('body must not contain "__proto__" or "constructor.prototype" keys')
}

function parseYaml(text: string, nodeBudget: number): unknown {
  let documents: unknown[]
  try {
    documents = yaml.loadAll(text, { schema: YAML_SCHEMA })
  } catch (error) {
    throw ApiError.badRequest(`body is not valid YAML: ${yamlProblem(error)}`)
  }
  if (documents.length > 1) throw ApiError.badRequest(`body holds ${documents.length} YAML documents; send one`)
  const value = documents[0]
  checkTree(value, nodeBudget)
  const tooDeep = depthError(value)
  if (tooDeep) throw tooDeep
  return value
}

/** Documents nested deeper than any real object are refused before anything walks them. */
function depthError(value: unknown): ApiError | undefined {
  const excess = findDepthExcess(value)
  return excess ? ApiError.badRequest(describeDepthExcess('body', excess)) : undefined
}

function yamlProblem(error: unknown): string {
  if (!(error instanceof yaml.YAMLException)) return (error as Error).message
  const mark = error.mark as { line?: number; column?: number } | undefined
  return mark?.line === undefined ? error.reason : `${error.reason} at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`
}

/**
 * YAML aliases share nodes, so a small body can stand for an enormous document (the "billion
 * laughs"); everything downstream would walk the expansion. The walk stops once it has seen as
 * many values as the body limit has bytes, which no plain document of allowed size exceeds.
 * It also refuses `__proto__` keys, as the JSON parser does.
 */
function checkTree(root: unknown, budget: number): void {
  const pending: unknown[] = [root]
  let seen = 0
  while (pending.length > 0) {
    const value = pending.pop()
    seen += 1
    if (seen > budget) throw new ApiError(413, 'payload too large', `YAML aliases expand the body beyond ${budget} values`)
    if (typeof value !== 'object' || value === null) continue
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item)
      continue
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__') throw ApiError.badRequest('body must not contain "__proto__" keys')
      pending.push(item)
    }
  }
}
