import type { FastifyPluginAsync } from 'fastify'
import { API_VERSION } from '../api-version.js'

export interface VersionInfo {
  readonly version: string
  readonly commit: string
}

const versionSchema = {
  summary: 'The service and API versions',
  tags: ['version'],
  response: {
    200: {
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
} as const

export const versionRoutes: FastifyPluginAsync<VersionInfo> = async (app, info) => {
  const body = { version: info.version, apiVersion: API_VERSION, commit: info.commit }
  app.get('/version', { schema: versionSchema, config: { scope: 'any' } }, async () => body)
}
