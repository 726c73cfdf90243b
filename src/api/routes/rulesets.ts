import type { FastifyPluginAsync } from 'fastify'
import type { DefinitionService } from '../../services/definition-service.js'
import { rulesetSchema } from './common-schemas.js'
import { definitionRoutes } from './definition-routes.js'

/** Rulesets; deleting one a policy still names is a 409. */
export function rulesetRoutes(definitions: DefinitionService): FastifyPluginAsync {
  return definitionRoutes({
    kind: 'ruleset',
    plural: 'rulesets',
    readScope: 'rulesets:read',
    writeScope: 'rulesets:write',
    schema: rulesetSchema,
    create: (name, body, options) => definitions.createRuleset(name, body, options),
    replace: (name, body, options) => definitions.replaceRuleset(name, body, options),
    get: (name) => definitions.getRuleset(name),
    list: (labels) => definitions.listRulesets(labels),
    remove: (name) => definitions.deleteRuleset(name),
  })
}
