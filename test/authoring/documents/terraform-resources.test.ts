import { describe, expect, it } from 'vitest'
import {
  isTerraformDocument,
  TERRAFORM_MODULE_DEPTH,
  terraformDocumentCondition,
  terraformResourceVariables,
} from '../../../src/authoring/documents/terraform-resources.js'
import { compileCel, toCelValue } from '../../../src/engine/cel/index.js'
import { compileRuleset, evaluateRuleset, PreparedInput, type Rule, type RuleResult } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

const PROVIDER = 'registry.terraform.io/hashicorp/aws'

/** A resource as planned_values / state modules list it. */
function resource(address: string, values: Json | null, mode: 'managed' | 'data' = 'managed'): Json {
  const parts = address.split('.')
  const name = parts.at(-1) ?? ''
  const type = parts.at(-2) ?? ''
  return { address, mode, type, name, provider_name: PROVIDER, values }
}

/** A resource_changes entry. */
function change(address: string, actions: string[], before: Json | null, after: Json | null, mode: 'managed' | 'data' = 'managed'): Json {
  const parts = address.split('.')
  const module = parts.slice(0, -2).join('.')
  return {
    address,
    ...(module ? { module_address: module } : {}),
    mode,
    type: parts.at(-2),
    name: parts.at(-1),
    provider_name: PROVIDER,
    change: { actions, before, after, after_unknown: {}, before_sensitive: false, after_sensitive: false },
  }
}

/** The rule variables evaluated in order, as the engine binds them; returns `resources`. */
function resourcesOf(document: unknown, types: readonly string[] = []): unknown {
  const variables: Record<string, unknown> = {}
  const object = toCelValue(document)
  for (const variable of terraformResourceVariables(types)) {
    variables[variable.name] = compileCel(variable.expression).evaluate({ object, variables })
  }
  return variables.resources
}

const ENCRYPTED = 'variables.resources.all(r, r.values.?storage_encrypted.orValue(false) == true)'

function encryptionRule(types: readonly string[]): Rule {
  return {
    name: 'databases-encrypted',
    match: { conditions: [{ name: 'terraform', expression: terraformDocumentCondition }] },
    variables: terraformResourceVariables(types),
    validate: {
      cel: [
        {
          expression: ENCRYPTED,
          messageExpression: "'unencrypted: ' + variables.resources.filter(r, r.values.?storage_encrypted.orValue(false) != true).map(r, r.address).join(', ')",
        },
      ],
    },
  }
}

/** Every rule's outcome, skipped and passed ones included. */
function judge(document: unknown, rule: Rule = encryptionRule(['aws_db_instance'])): Array<Pick<RuleResult, 'rule' | 'status' | 'message'>> {
  const compiled = compileRuleset({ name: 'terraform', rules: [rule], labels: {} })
  const result = evaluateRuleset(compiled, new PreparedInput({ object: document }), { verbose: true })
  return result.results.map(({ rule: name, status, message }) => ({ rule: name, status, ...(message === undefined ? {} : { message }) }))
}

const pass = [{ rule: 'databases-encrypted', status: 'pass' }]
const skip = [{ rule: 'databases-encrypted', status: 'skip', message: 'match condition "terraform" is false' }]
const fail = (addresses: string): Array<{ rule: string; status: string; message: string }> => [
  { rule: 'databases-encrypted', status: 'fail', message: `unencrypted: ${addresses}` },
]

describe('one resource', () => {
  it('is judged on its values', () => {
    const encrypted = resource('aws_db_instance.main', { storage_encrypted: true, allocated_storage: 20 })
    expect(resourcesOf(encrypted)).toEqual([{ address: 'aws_db_instance.main', type: 'aws_db_instance', values: { storage_encrypted: true, allocated_storage: 20n } }])
    expect(judge(encrypted)).toEqual(pass)
    expect(judge(resource('aws_db_instance.main', { storage_encrypted: false }))).toEqual(fail('aws_db_instance.main'))
    expect(judge(resource('aws_db_instance.main', {}))).toEqual(fail('aws_db_instance.main'))
  })

  it('has values {} when the document has values: null, or none', () => {
    const bare = resource('aws_db_instance.main', null)
    expect(isTerraformDocument(bare)).toBe(true)
    expect(resourcesOf(bare)).toEqual([{ address: 'aws_db_instance.main', type: 'aws_db_instance', values: {} }])
    expect(judge(bare)).toEqual(fail('aws_db_instance.main'))
    delete bare.values
    expect(isTerraformDocument(bare)).toBe(true)
    expect(resourcesOf(bare)).toEqual([{ address: 'aws_db_instance.main', type: 'aws_db_instance', values: {} }])
  })

  it('of another type, or a data source, gives no resources', () => {
    expect(resourcesOf(resource('aws_s3_bucket.logs', { bucket: 'logs' }), ['aws_db_instance'])).toEqual([])
    expect(judge(resource('aws_s3_bucket.logs', { bucket: 'logs' }))).toEqual(pass)
    const data = resource('data.aws_db_instance.existing', { storage_encrypted: false }, 'data')
    expect(resourcesOf(data)).toEqual([])
    expect(judge(data)).toEqual(pass)
  })

  it('of any type when no type is given', () => {
    expect(resourcesOf(resource('aws_s3_bucket.logs', { bucket: 'logs' }))).toEqual([{ address: 'aws_s3_bucket.logs', type: 'aws_s3_bucket', values: { bucket: 'logs' } }])
  })
})

describe('one resource change', () => {
  const address = 'aws_db_instance.main'

  it('create and update are judged on after', () => {
    const create = change(address, ['create'], null, { storage_encrypted: true })
    expect(resourcesOf(create)).toEqual([{ address, type: 'aws_db_instance', values: { storage_encrypted: true } }])
    expect(judge(create)).toEqual(pass)
    expect(judge(change(address, ['create'], null, { storage_encrypted: false }))).toEqual(fail(address))
    expect(judge(change(address, ['update'], { storage_encrypted: false }, { storage_encrypted: true }))).toEqual(pass)
    expect(judge(change(address, ['update'], { storage_encrypted: true }, { storage_encrypted: false }))).toEqual(fail(address))
    expect(judge(change(address, ['no-op'], { storage_encrypted: false }, { storage_encrypted: false }))).toEqual(fail(address))
  })

  it('a delete is skipped: nothing of it remains', () => {
    const deletion = change(address, ['delete'], { storage_encrypted: false }, null)
    expect(isTerraformDocument(deletion)).toBe(true)
    expect(resourcesOf(deletion)).toEqual([])
    expect(judge(deletion)).toEqual(pass)
  })

  it('a replace, in either order, is judged on after', () => {
    const replace = change(address, ['delete', 'create'], { storage_encrypted: true }, { storage_encrypted: false })
    expect(resourcesOf(replace)).toEqual([{ address, type: 'aws_db_instance', values: { storage_encrypted: false } }])
    expect(judge(replace)).toEqual(fail(address))
    expect(judge(change(address, ['create', 'delete'], { storage_encrypted: false }, { storage_encrypted: true }))).toEqual(pass)
  })

  it('a read (data source) and a forget are skipped', () => {
    expect(resourcesOf(change('data.aws_db_instance.x', ['read'], null, { storage_encrypted: false }, 'data'))).toEqual([])
    expect(resourcesOf(change(address, ['forget'], { storage_encrypted: false }, null))).toEqual([])
  })
})

/** A plan as `terraform show -json plan.out` writes it: root, child and grandchild modules. */
function wholePlan(): Json {
  return {
    format_version: '1.2',
    terraform_version: '1.9.5',
    planned_values: {
      root_module: {
        resources: [
          resource('aws_db_instance.main', { storage_encrypted: true, allocated_storage: 20 }),
          resource('aws_s3_bucket.logs', { bucket: 'acme-logs' }),
        ],
        child_modules: [
          {
            address: 'module.app',
            resources: [resource('module.app.aws_db_instance.app', { storage_encrypted: true })],
            child_modules: [
              {
                address: 'module.app.module.replica',
                resources: [resource('module.app.module.replica.aws_db_instance.replica', { storage_encrypted: false })],
              },
            ],
          },
        ],
      },
    },
    resource_changes: [
      change('aws_db_instance.main', ['no-op'], { storage_encrypted: true, allocated_storage: 20 }, { storage_encrypted: true, allocated_storage: 20 }),
      change('aws_s3_bucket.logs', ['create'], null, { bucket: 'acme-logs' }),
      change('module.app.aws_db_instance.app', ['update'], { storage_encrypted: false }, { storage_encrypted: true }),
      change('module.app.module.replica.aws_db_instance.replica', ['create'], null, { storage_encrypted: false }),
      change('aws_db_instance.legacy', ['delete'], { storage_encrypted: false }, null),
      change('data.aws_db_instance.existing', ['read'], null, { storage_encrypted: false }, 'data'),
    ],
    prior_state: {
      values: { root_module: { resources: [resource('aws_db_instance.legacy', { storage_encrypted: false })] } },
    },
  }
}

describe('a whole plan', () => {
  it('judges every planned resource once, the deleted one not at all', () => {
    expect(resourcesOf(wholePlan(), ['aws_db_instance'])).toEqual([
      { address: 'aws_db_instance.main', type: 'aws_db_instance', values: { storage_encrypted: true, allocated_storage: 20n } },
      { address: 'module.app.aws_db_instance.app', type: 'aws_db_instance', values: { storage_encrypted: true } },
      { address: 'module.app.module.replica.aws_db_instance.replica', type: 'aws_db_instance', values: { storage_encrypted: false } },
    ])
    expect(judge(wholePlan())).toEqual(fail('module.app.module.replica.aws_db_instance.replica'))
  })

  it('passes when the grandchild module is fixed', () => {
    const plan = wholePlan()
    const replica = change('module.app.module.replica.aws_db_instance.replica', ['create'], null, { storage_encrypted: true })
    ;(plan.resource_changes as Json[])[3] = replica
    // planned_values still says false: the change's after is what is judged for that address.
    expect(judge(plan)).toEqual(pass)
  })

  it('lists every type when no type is given', () => {
    const addresses = (resourcesOf(wholePlan()) as Array<{ address: string }>).map((entry) => entry.address)
    expect(addresses).toEqual([
      'aws_db_instance.main',
      'aws_s3_bucket.logs',
      'module.app.aws_db_instance.app',
      'module.app.module.replica.aws_db_instance.replica',
    ])
  })

  it('walks planned_values modules when the plan has no resource_changes', () => {
    const plan = wholePlan()
    delete plan.resource_changes
    expect(resourcesOf(plan, ['aws_db_instance'])).toEqual([
      { address: 'aws_db_instance.main', type: 'aws_db_instance', values: { storage_encrypted: true, allocated_storage: 20n } },
      { address: 'module.app.aws_db_instance.app', type: 'aws_db_instance', values: { storage_encrypted: true } },
      { address: 'module.app.module.replica.aws_db_instance.replica', type: 'aws_db_instance', values: { storage_encrypted: false } },
    ])
    expect(judge(plan)).toEqual(fail('module.app.module.replica.aws_db_instance.replica'))
  })

  it('with resource_changes, is judged on them alone: planned_values only repeats them', () => {
    const plan = wholePlan()
    const root = (plan.planned_values as Json).root_module as Json
    // Not something Terraform writes: planned_values is built from the same changes.
    ;(root.resources as Json[]).push(resource('aws_db_instance.extra', { storage_encrypted: false }))
    expect((resourcesOf(plan, ['aws_db_instance']) as Array<{ address: string }>).map((entry) => entry.address)).toEqual([
      'aws_db_instance.main',
      'module.app.aws_db_instance.app',
      'module.app.module.replica.aws_db_instance.replica',
    ])
    plan.resource_changes = []
    expect((resourcesOf(plan, ['aws_db_instance']) as Array<{ address: string }>).map((entry) => entry.address)).toEqual([
      'aws_db_instance.main',
      'aws_db_instance.extra',
      'module.app.aws_db_instance.app',
      'module.app.module.replica.aws_db_instance.replica',
    ])
    expect(judge(plan)).toEqual(fail('aws_db_instance.extra, module.app.module.replica.aws_db_instance.replica'))
  })

  it('with no resource of the type has no resources, and passes', () => {
    const plan = {
      format_version: '1.2',
      planned_values: { root_module: { resources: [resource('aws_s3_bucket.logs', { bucket: 'acme-logs' })] } },
      resource_changes: [change('aws_s3_bucket.logs', ['create'], null, { bucket: 'acme-logs' })],
    }
    expect(resourcesOf(plan, ['aws_db_instance'])).toEqual([])
    expect(judge(plan)).toEqual(pass)
  })

  it('an empty plan (nothing planned) has no resources', () => {
    const plan = { format_version: '1.2', planned_values: { root_module: {} } }
    expect(isTerraformDocument(plan)).toBe(true)
    expect(resourcesOf(plan)).toEqual([])
    expect(judge(plan)).toEqual(pass)
  })
})

/** `terraform show -json` of a state: modules nested `depth` levels, one database in the deepest. */
function nestedState(depth: number, encrypted: boolean): Json {
  let module: Json = { address: `module.m${depth}`, resources: [resource(`module.m${depth}.aws_db_instance.deep`, { storage_encrypted: encrypted })] }
  for (let level = depth - 1; level >= 1; level--) module = { address: `module.m${level}`, child_modules: [module] }
  return { format_version: '1.0', terraform_version: '1.9.5', values: { root_module: depth === 0 ? module : { child_modules: [module] } } }
}

describe('a state', () => {
  it('is judged like planned_values, modules included', () => {
    const state = {
      format_version: '1.0',
      terraform_version: '1.9.5',
      values: {
        root_module: {
          resources: [resource('aws_db_instance.main', { storage_encrypted: true }), resource('data.aws_db_instance.x', { storage_encrypted: false }, 'data')],
          child_modules: [
            {
              address: 'module.app',
              resources: [resource('module.app.aws_db_instance.app', { storage_encrypted: false })],
              child_modules: [{ address: 'module.app.module.db', resources: [resource('module.app.module.db.aws_db_instance.db', { storage_encrypted: true })] }],
            },
          ],
        },
      },
    }
    expect(isTerraformDocument(state)).toBe(true)
    expect(resourcesOf(state, ['aws_db_instance'])).toEqual([
      { address: 'aws_db_instance.main', type: 'aws_db_instance', values: { storage_encrypted: true } },
      { address: 'module.app.aws_db_instance.app', type: 'aws_db_instance', values: { storage_encrypted: false } },
      { address: 'module.app.module.db.aws_db_instance.db', type: 'aws_db_instance', values: { storage_encrypted: true } },
    ])
    expect(judge(state)).toEqual(fail('module.app.aws_db_instance.app'))
  })

  it(`reaches modules ${TERRAFORM_MODULE_DEPTH} levels below the root`, () => {
    expect(judge(nestedState(TERRAFORM_MODULE_DEPTH, false))).toEqual(fail(`module.m${TERRAFORM_MODULE_DEPTH}.aws_db_instance.deep`))
    expect(judge(nestedState(TERRAFORM_MODULE_DEPTH, true))).toEqual(pass)
  })

  it('errs rather than passes when modules nest deeper', () => {
    const results = judge(nestedState(TERRAFORM_MODULE_DEPTH + 1, true))
    expect(results).toHaveLength(1)
    expect(results[0]?.status).toBe('error')
    expect(results[0]?.message).toContain('No such key: terraform_modules_nested_too_deep')
  })

  it('a plan with deeper modules is judged through resource_changes, without error', () => {
    const deep = nestedState(TERRAFORM_MODULE_DEPTH + 1, true)
    const plan = {
      planned_values: deep.values,
      resource_changes: [change(`module.m${TERRAFORM_MODULE_DEPTH + 1}.aws_db_instance.deep`, ['create'], null, { storage_encrypted: false })],
    }
    expect(judge(plan)).toEqual(fail(`module.m${TERRAFORM_MODULE_DEPTH + 1}.aws_db_instance.deep`))
  })
})

describe('terraformDocumentCondition and isTerraformDocument', () => {
  const condition = compileCel(terraformDocumentCondition)
  const holds = (document: unknown): unknown => condition.evaluate({ object: toCelValue(document) })

  it.each<[string, unknown, boolean]>([
    ['a plan', wholePlan(), true],
    ['a plan with resource_changes only', { resource_changes: [] }, true],
    ['a state', nestedState(1, true), true],
    ['a resource', resource('aws_db_instance.main', { storage_encrypted: true }), true],
    ['a resource change', change('aws_db_instance.main', ['create'], null, {}), true],
    ['a Kubernetes object', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } }, false],
    ['a map with address and type but no values, mode or change', { address: 'x', type: 'y' }, false],
    ['values without root_module', { values: { a: 1 } }, false],
    ['planned_values that is not a map', { planned_values: [] }, false],
    ['a list', [resource('aws_db_instance.main', {})], false],
    ['a string', 'terraform', false],
    ['null', null, false],
  ])('%s', (_name, document, expected) => {
    expect(holds(document)).toBe(expected)
    expect(isTerraformDocument(document)).toBe(expected)
  })

  it('skips the rule for a document that is not Terraform', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } }
    expect(judge(pod)).toEqual(skip)
    expect(resourcesOf(pod)).toEqual([])
    expect(resourcesOf(['not', 'a', 'map'])).toEqual([])
  })
})

describe('malformed parts', () => {
  it('are skipped, not errors', () => {
    const plan = {
      planned_values: { root_module: { resources: [null, 'x', resource('aws_db_instance.ok', { storage_encrypted: true })], child_modules: 'none' } },
      resource_changes: [42, { address: 'aws_db_instance.odd', type: 'aws_db_instance', change: null }] as unknown[],
    }
    expect(resourcesOf(plan)).toEqual([{ address: 'aws_db_instance.ok', type: 'aws_db_instance', values: { storage_encrypted: true } }])
    expect(judge(plan)).toEqual(pass)
    plan.resource_changes.push(change('aws_db_instance.changed', ['update'], {}, { storage_encrypted: false }))
    expect(resourcesOf(plan)).toEqual([{ address: 'aws_db_instance.changed', type: 'aws_db_instance', values: { storage_encrypted: false } }])
    expect(judge(plan)).toEqual(fail('aws_db_instance.changed'))
  })

  it('an address falls back to type.name', () => {
    const plan = { planned_values: { root_module: { resources: [{ mode: 'managed', type: 'aws_db_instance', name: 'main', values: {} }] } } }
    expect(resourcesOf(plan)).toEqual([{ address: 'aws_db_instance.main', type: 'aws_db_instance', values: {} }])
  })
})

describe('IAM policy documents embedded as JSON', () => {
  const policy = (statement: Json): string => JSON.stringify({ Version: '2012-10-17', Statement: [statement] })
  const rule: Rule = {
    name: 'no-admin-policies',
    match: { conditions: [{ expression: terraformDocumentCondition }] },
    variables: terraformResourceVariables(['aws_iam_policy']),
    validate: {
      cel: [
        {
          expression:
            "variables.resources.all(r, !json.decode(r.values.?policy.orValue('{}')).?Statement.orValue([]).exists(s, s.?Effect.orValue('') == 'Allow' && s.?Action.orValue('') == '*'))",
          message: 'IAM policies must not allow every action',
        },
      ],
    },
  }

  it('decodes the policy string of every aws_iam_policy', () => {
    const plan = (statement: Json): Json => ({
      planned_values: { root_module: { resources: [resource('aws_iam_policy.admin', { name: 'admin', policy: policy(statement) })] } },
    })
    expect(judge(plan({ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }), rule)).toEqual([{ rule: 'no-admin-policies', status: 'pass' }])
    expect(judge(plan({ Effect: 'Allow', Action: '*', Resource: '*' }), rule)).toEqual([
      { rule: 'no-admin-policies', status: 'fail', message: 'IAM policies must not allow every action' },
    ])
  })

  it('a policy that is not JSON makes the rule err', () => {
    const results = judge(resource('aws_iam_policy.broken', { policy: '{"Statement": [' }), rule)
    expect(results).toHaveLength(1)
    expect(results[0]?.status).toBe('error')
    expect(results[0]?.message).toContain('json.decode: invalid JSON')
  })
})
