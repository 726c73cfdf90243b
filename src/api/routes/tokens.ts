import type { FastifyPluginAsync } from 'fastify'
import { SCOPES } from '../../services/scopes.js'
import { parseTimestamp } from '../../services/rfc3339-timestamp.js'
import type { TokenService } from '../../services/token-service.js'
import { errorSchema } from './common-schemas.js'

interface CreateTokenBody {
  name: string
  owner?: string
  scopes: string[]
  expiresAt?: string
}

const tokenView = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: ['string', 'null'] },
    lastUsedAt: { type: ['string', 'null'] },
    revokedAt: { type: ['string', 'null'] },
  },
} as const

const createdToken = {
  type: 'object',
  properties: { ...tokenView.properties, secret: { type: 'string', description: 'shown once; store it now' } },
} as const

const createBody = {
  type: 'object',
  required: ['name', 'scopes'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    owner: {
      type: 'string',
      description: "the identity written to audits' updatedBy: an e-mail address, a user name or a Kubernetes identity such as system:serviceaccount:ns:name; default: the caller's",
    },
    scopes: { type: 'array', minItems: 1, items: { type: 'string', enum: [...SCOPES] }, description: 'only scopes the calling token holds (admin holds all); others are a 403' },
    expiresAt: { type: 'string', description: 'RFC 3339 date-time with a zone, such as 2027-01-31T12:00:00Z' },
  },
} as const

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } as const
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema }

/** API tokens: the secret is shown once, at creation; revocation takes effect on every replica. */
export function tokenRoutes(tokens: TokenService): FastifyPluginAsync {
  return async (app) => {
    const scope = { scope: 'tokens:manage' }

    app.post<{ Body: CreateTokenBody }>(
      '/api/tokens',
      { config: scope, schema: { summary: 'Create an API token', body: createBody, response: { 201: createdToken, ...errors } } },
      async (request, reply) => {
        const created = await tokens.create({
          name: request.body.name,
          owner: request.body.owner ?? request.principal.owner,
          scopes: request.body.scopes,
          expiresAt: request.body.expiresAt === undefined ? null : parseTimestamp('body.expiresAt', request.body.expiresAt),
          grantedBy: request.principal.scopes,
        })
        return reply.code(201).send(created)
      },
    )

    app.get('/api/tokens', { config: scope, schema: { summary: 'List API tokens', response: { 200: { type: 'object', properties: { tokens: { type: 'array', items: tokenView } } }, ...errors } } }, async () => ({
      tokens: await tokens.list(),
    }))

    app.get<{ Params: { id: string } }>(
      '/api/tokens/:id',
      { config: scope, schema: { summary: 'Read an API token', params: idParams, response: { 200: tokenView, ...errors } } },
      async (request) => tokens.get(request.params.id),
    )

    app.delete<{ Params: { id: string } }>(
      '/api/tokens/:id',
      { config: scope, schema: { summary: 'Revoke an API token', params: idParams, response: { 200: tokenView, ...errors } } },
      async (request) => tokens.revoke(request.params.id),
    )
  }
}
