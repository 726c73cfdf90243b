import { auditRemediations, type AuditRemediations } from '../remediation/audit-remediations.js'
import { rulesetRemediations, type RuleRemediationEntry } from '../remediation/ruleset-remediations.js'
import { policyAuditsByRequestId, rulesetAuditsByRequestId } from '../store/audits-repository.js'
import type { Db } from '../store/db.js'
import type { DefinitionCatalog } from './definition-catalog.js'
import { NotFoundError } from './service-errors.js'

export interface RulesetRemediations {
  rulesetName: string
  version: number
  remediations: RuleRemediationEntry[]
}

/**
 * Remediation guidance: per rule of a ruleset, and per failure of an audited evaluation. Rules are
 * read from the catalog, the same definitions evaluation uses; audits from the store.
 */
export class RemediationService {
  readonly #db: Db
  readonly #catalog: DefinitionCatalog

  constructor(db: Db, catalog: DefinitionCatalog) {
    this.#db = db
    this.#catalog = catalog
  }

  forRuleset(name: string): RulesetRemediations {
    const ruleset = this.#catalog.ruleset(name)
    if (!ruleset) throw new NotFoundError('ruleset', name)
    return { rulesetName: ruleset.name, version: ruleset.version, remediations: rulesetRemediations(ruleset) }
  }

  async forAudit(requestId: string): Promise<AuditRemediations> {
    const [policyAudits, rulesetAudits] = await Promise.all([
      policyAuditsByRequestId(this.#db, requestId),
      rulesetAuditsByRequestId(this.#db, requestId),
    ])
    if (policyAudits.length === 0 && rulesetAudits.length === 0) throw new NotFoundError('audit for request', requestId)
    return auditRemediations(requestId, { policyAudits, rulesetAudits }, this.#catalog)
  }
}
