import { appliedTo, type PolicyAction, type RuleResult, type RuleStatus, type Severity } from '../../engine/index.js'
import type { ScanObject } from '../manifests/manifest-object.js'
import { ScanInputError } from '../scan-error.js'
import type { PolicyJudgement, ScanPolicy } from '../scan-result.js'
import type { Judge } from './judge.js'
import type { VerdictApiClient } from './verdict-api-client.js'

const ACTIONS: readonly string[] = ['Deny', 'Warn', 'Audit']
const STATUSES: readonly string[] = ['pass', 'fail', 'error', 'skip']
const SEVERITIES: readonly string[] = ['info', 'low', 'medium', 'high', 'critical']

/**
 * Judges by a running Verdict: every stored policy not switched off (GET /api/policies) evaluates every object
 * (POST /api/eval/policies/{name}?verbose=true), so the server's definitions and its audits are
 * the ones that count. Verbose answers list pass and skip too: an answer with no rule that judged
 * the object means the policy does not apply to it. The server records each evaluation as an audit.
 */
export class ServerJudge implements Judge {
  readonly policies: ScanPolicy[]
  readonly #client: VerdictApiClient

  private constructor(client: VerdictApiClient, policies: ScanPolicy[]) {
    this.#client = client
    this.policies = policies
  }

  static async connect(client: VerdictApiClient): Promise<ServerJudge> {
    const listed = await client.get('/api/policies')
    const policies = isRecord(listed) && Array.isArray(listed.policies) ? listed.policies : undefined
    if (!policies) throw new ScanInputError('GET /api/policies answered without a policies list')
    const scanPolicies = policies.flatMap((policy, index) => {
      if (!isRecord(policy) || typeof policy.name !== 'string') throw new ScanInputError(`GET /api/policies: policies[${index}] has no name`)
      // A policy switched off judges nothing: asking it would only write audits saying so.
      if (policy.enabled === false) return []
      const action = typeof policy.action === 'string' && ACTIONS.includes(policy.action) ? (policy.action as PolicyAction) : 'Audit'
      return [{ name: policy.name, action, rules: [] }]
    })
    if (scanPolicies.length === 0) throw new ScanInputError(policies.length === 0 ? 'the server holds no policy' : 'every policy the server holds is switched off (enabled: false)')
    return new ServerJudge(client, scanPolicies)
  }

  async judge(object: ScanObject): Promise<PolicyJudgement[]> {
    const judgements: PolicyJudgement[] = []
    for (const policy of this.policies) {
      const path = `/api/eval/policies/${encodeURIComponent(policy.name)}?verbose=true`
      const answer = await this.#client.post(path, { inputData: object.value })
      if (!isRecord(answer) || typeof answer.passed !== 'boolean' || !Array.isArray(answer.results)) {
        throw new ScanInputError(`POST ${path} answered without passed and results`)
      }
      // The server applied its PolicyExceptions and switches: a rule one let through, or one switched off, is listed, saying so.
      const results = answer.results.map((result, index) => ruleResult(result, `POST ${path}: results[${index}]`)).filter(appliedTo)
      if (results.length > 0) judgements.push({ policy: policy.name, action: policy.action, passed: answer.passed, results })
    }
    return judgements
  }
}

function ruleResult(value: unknown, where: string): RuleResult {
  if (!isRecord(value) || typeof value.ruleset !== 'string' || typeof value.rule !== 'string' || !STATUSES.includes(String(value.status))) {
    throw new ScanInputError(`${where} is not a rule result`)
  }
  return {
    ruleset: value.ruleset,
    rule: value.rule,
    status: value.status as RuleStatus,
    severity: SEVERITIES.includes(String(value.severity)) ? (value.severity as Severity) : 'medium',
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
    ...(typeof value.remediation === 'string' ? { remediation: value.remediation } : {}),
    ...(typeof value.path === 'string' ? { path: value.path } : {}),
    ...(typeof value.autogen === 'string' ? { autogen: value.autogen } : {}),
    ...(value.status === 'skip' && typeof value.exception === 'string' ? { exception: value.exception } : {}),
    ...(value.status === 'skip' && value.disabled === true ? { disabled: true as const, disabledReason: typeof value.disabledReason === 'string' ? value.disabledReason : '' } : {}),
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
