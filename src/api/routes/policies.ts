import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionService } from '../../services/definition-service.js'
import { policySchema } from './common-schemas.js'
import { definitionRoutes } from './definition-routes.js'

/** Policies; creating one that names a ruleset which does not exist is a 400. */
export function policyRoutes(definitions: DefinitionService): FastifyPluginAsync {
  return definitionRoutes({
    kind: 'policy',
    plural: 'policies',
    readScope: 'policies:read',
    writeScope: 'policies:write',
    schema: policySchema,
    create: (name, body, options) => definitions.createPolicy(name, body, options),
    replace: (name, body, options) => definitions.replacePolicy(name, body, options),
    get: (name) => definitions.getPolicy(name),
    list: (labels) => definitions.listPolicies(labels),
    remove: (name) => definitions.deletePolicy(name),
  })
}
