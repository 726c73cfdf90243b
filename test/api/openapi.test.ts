import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/build-app.js'
import { loadConfig } from '../../src/config.js'
import { bearer, expectError, expectStamped, startServer, VERSION, type TestServer } from './test-server.js'

type Json = Record<string, unknown>

describe('GET /api/openapi.json', () => {
  let server: TestServer
  let document: Json
  beforeAll(async () => {
    server = await startServer()
    const response = await fetch(`${server.url}/api/openapi.json`, { headers: bearer('plain-secret') })
    expectStamped(response)
    expect(response.status).toBe(200)
    document = (await response.json()) as Json
  })
  afterAll(() => server.close())

  const operation = (path: string, method: string): Json => ((document.paths as Record<string, Record<string, Json>>)[path]?.[method] ?? {}) as Json

  it('needs a token', async () => {
    await expectError(await fetch(`${server.url}/api/openapi.json`), 401, 'unauthorized', 'missing Authorization header; send Authorization: Bearer <token>')
  })

  it('is an OpenAPI 3.1 document with a bearer security scheme', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.info).toEqual({ title: 'Verdict API', version: '1.0' })
    expect((document.components as Json).securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'an API token: Authorization: Bearer <token>' },
    })
  })

  it('lists every registered route, in OpenAPI path syntax, and no HEAD twins', () => {
    expect(Object.keys(document.paths as Json).sort()).toEqual([
      '/api/boom',
      '/api/conflict',
      '/api/json-only',
      '/api/openapi.json',
      '/api/service-invalid',
      '/api/store-down',
      '/api/store-missing',
      '/api/things/{name}',
      '/public/ping',
      '/version',
    ])
    expect(Object.keys((document.paths as Json)['/api/things/{name}'] as Json)).toEqual(['get', 'post'])
  })

  it('carries the parameters, their schemas and the summary of a route', () => {
    const read = operation('/api/things/{name}', 'get')
    expect(read.summary).toBe('Read a thing')
    expect(read.tags).toEqual(['things'])
    expect(read.operationId).toBe('getApiThingsByName')
    expect(read.parameters).toEqual([
      { name: 'name', in: 'path', required: true, description: 'name of the thing', schema: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 63, description: 'name of the thing' } },
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'pageSize', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } },
    ])
    expect((read.responses as Json)['200']).toEqual({
      description: 'OK',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { name: { type: 'string' }, page: { type: 'integer' }, pageSize: { type: 'integer' }, owner: { type: 'string' } } },
        },
      },
    })
  })

  it('states the required scope as the security requirement', () => {
    expect(operation('/api/things/{name}', 'get').security).toEqual([{ bearerAuth: ['rulesets:read'] }])
    expect(operation('/api/things/{name}', 'get')['x-required-scope']).toBe('rulesets:read')
    expect(operation('/version', 'get').security).toEqual([{ bearerAuth: [] }])
    expect(operation('/public/ping', 'get').security).toEqual([])
  })

  it('offers YAML request bodies only where the route accepts them', () => {
    const body = { type: 'object', required: ['inputData'], properties: { inputData: { type: 'object' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } }
    const create = operation('/api/things/{name}', 'post')
    expect(create.requestBody).toEqual({
      required: true,
      content: {
        'application/json': { schema: body },
        'application/x-yaml': { schema: body },
        'application/yaml': { schema: body },
        'text/yaml': { schema: body },
      },
    })
    expect(Object.keys((operation('/api/json-only', 'post').requestBody as { content: Json }).content)).toEqual(['application/json'])
  })

  it('documents the error responses a route can give, in the error shape', () => {
    const create = operation('/api/things/{name}', 'post')
    expect(Object.keys(create.responses as Json).sort()).toEqual(['201', '400', '401', '403', '413', '415', '429', '500', '503'])
    expect((create.responses as Json)['403']).toEqual({ description: 'Forbidden', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
    expect(Object.keys(operation('/public/ping', 'get').responses as Json).sort()).toEqual(['200', '500', '503'])
    expect(((document.components as Json).schemas as Json).Error).toEqual({
      type: 'object',
      required: ['error', 'details'],
      properties: { error: { type: 'string', description: 'short message' }, details: { type: 'string', description: 'what went wrong, naming the field' } },
    })
  })

  it('describes GET /version', () => {
    const version = operation('/version', 'get')
    expect(version.summary).toBe('The service and API versions')
    expect(((version.responses as Json)['200'] as Json).content).toEqual({
      'application/json': {
        schema: {
          type: 'object',
          required: ['version', 'apiVersion', 'commit'],
          properties: {
            version: { type: 'string', description: 'release of the service' },
            apiVersion: { type: 'string', description: 'version of the REST API, as in the X-API-Version header' },
            commit: { type: 'string', description: 'source commit of the build' },
          },
          additionalProperties: false,
        },
      },
    })
  })
})

describe('shared schemas in the OpenAPI document', () => {
  it('points $ref to shared schemas at components', async () => {
    const server = await startServer({
      routes: [
        async (app) => {
          app.addSchema({ $id: 'labels', type: 'object', additionalProperties: { type: 'string' } })
          app.get('/api/labelled', { config: { scope: 'any' }, schema: { response: { 200: { type: 'object', properties: { labels: { $ref: 'labels#' } } } } } }, async () => ({
            labels: { a: 'b' },
          }))
        },
      ],
    })
    try {
      const document = (await (await fetch(`${server.url}/api/openapi.json`, { headers: bearer('plain-secret') })).json()) as Json
      const components = (document.components as Json).schemas as Json
      expect(components.labels).toEqual({ type: 'object', additionalProperties: { type: 'string' } })
      const get = (document.paths as Record<string, Record<string, Json>>)['/api/labelled']?.get as Json
      expect(((get.responses as Json)['200'] as Json).content).toEqual({
        'application/json': { schema: { type: 'object', properties: { labels: { $ref: '#/components/schemas/labels' } } } },
      })
    } finally {
      await server.close()
    }
  })
})

describe('route registration', () => {
  it('refuses a route that declares no scope', async () => {
    const app = await buildApp({
      config: loadConfig({}, []),
      authenticate: async () => null,
      routes: [
        async (instance) => {
          instance.get('/api/open', async () => ({}))
        },
      ],
      version: VERSION,
      logger: false,
    }).catch((error: unknown) => error)
    expect((app as Error).message).toBe("route GET /api/open declares no config.scope (a scope, 'any' or 'public')")
  })
})
