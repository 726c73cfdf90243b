import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

/** Issue 32: `?dryRun=true` and POST /api/prompt show one reading, per rule the words that grounded its field and value. */
describe('the words each rule stands on, over HTTP', () => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
    admin = service.adminToken
  })
  afterAll(() => service?.close())

  /** The sentences of a dry run and of a prompt check of one instruction. */
  async function readings(instruction: string, labels: Record<string, string>): Promise<{ dryRun: unknown; prompt: unknown }> {
    const dryRun = await api('POST', '/api/rulesets/grounds?dryRun=true', { token: admin, body: { instruction, labels } })
    expect(dryRun.status).toBe(200)
    const prompt = await api('POST', '/api/prompt', { token: admin, body: { instruction, labels } })
    expect(prompt.status).toBe(200)
    return { dryRun: (dryRun.body as { interpretation: { sentences: unknown } }).interpretation.sentences, prompt: (prompt.body as { sentences: unknown }).sentences }
  }

  it('shows the field\'s words and the number, the same in a dry run and in a prompt check', async () => {
    const instruction = 'Containers must run as user 1000 or higher'
    const { dryRun, prompt } = await readings(instruction, { platform: 'kubernetes' })
    const expected = [
      {
        text: instruction,
        role: 'requirement',
        became: 'rule runasuser-bounds',
        rules: ['runasuser-bounds'],
        grounds: [
          {
            rule: 'runasuser-bounds',
            fields: [{ words: 'run as user', field: 'spec.containers[*].securityContext.runAsUser', how: 'schema field name' }],
            values: [{ words: '1000 or higher', value: 1000, how: 'number' }],
          },
        ],
      },
    ]
    expect(dryRun).toEqual(expected)
    expect(prompt).toEqual(expected)
  })

  it('says a field in backticks is written as code, with its exemption grounded too', async () => {
    const instruction = '`spec.replicas` must be at least 2, except in the kube-system namespace'
    const { dryRun, prompt } = await readings(instruction, { platform: 'kubernetes', resource: 'Deployment' })
    const expected = [
      {
        text: instruction,
        role: 'requirement',
        became: 'rule replicas-bounds',
        rules: ['replicas-bounds'],
        grounds: [
          {
            rule: 'replicas-bounds',
            fields: [{ words: '`spec.replicas`', field: 'spec.replicas', how: 'written as code' }],
            values: [{ words: 'at least 2', value: 2, how: 'number' }],
            exemptions: [
              {
                words: 'except in the kube-system namespace',
                field: { words: 'namespace', field: 'metadata.namespace', how: 'schema field name' },
                values: [{ words: 'kube-system', value: 'kube-system', how: 'written as a name' }],
              },
            ],
          },
        ],
      },
    ]
    expect(dryRun).toEqual(expected)
    expect(prompt).toEqual(expected)
  })

  it('says how a label key is written: quoted', async () => {
    const instruction = 'Pods must have the label "team"'
    const { dryRun, prompt } = await readings(instruction, { platform: 'kubernetes' })
    const expected = [
      {
        text: instruction,
        role: 'requirement',
        became: 'rule team-required',
        rules: ['team-required'],
        grounds: [{ rule: 'team-required', fields: [{ words: '"team"', field: 'metadata.labels.team', how: 'label key, quoted' }] }],
      },
    ]
    expect(dryRun).toEqual(expected)
    expect(prompt).toEqual(expected)
  })

  it('grounds a named requirement on its id and title, and on the values the sentence wrote', async () => {
    const instruction = 'images must come from registry.acme.io'
    const { dryRun, prompt } = await readings(instruction, { platform: 'kubernetes' })
    const expected = [
      {
        text: instruction,
        role: 'requirement',
        became: 'rule images-only-from-registry-acme-io (named requirement image-registry-allowed)',
        rules: ['images-only-from-registry-acme-io'],
        grounds: [
          {
            rule: 'images-only-from-registry-acme-io',
            named: {
              id: 'image-registry-allowed',
              title: 'Images only from allowed registries',
              parameters: [{ parameter: 'registries', words: 'registry.acme.io', value: 'registry.acme.io', how: 'written as a name' }],
            },
          },
        ],
      },
    ]
    expect(dryRun).toEqual(expected)
    expect(prompt).toEqual(expected)
  })

  it('documents the grounds in the OpenAPI document, one schema for both routes', async () => {
    const document = (await api('GET', '/api/openapi.json', { token: admin })).body as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }>>
    }
    const schemaOf = (path: string, status: string): Record<string, unknown> | undefined => document.paths[path]?.post?.responses[status]?.content['application/json']?.schema
    const rulesetSentence = (schemaOf('/api/rulesets/{name}', '200') as { properties: { interpretation: { properties: { sentences: { items: unknown } } } } }).properties.interpretation.properties.sentences.items
    const promptSentence = (schemaOf('/api/prompt', '200') as { properties: { sentences: { items: unknown } } }).properties.sentences.items
    expect(promptSentence).toEqual(rulesetSentence)
    expect(promptSentence).toMatchObject({ properties: { grounds: { type: 'array', description: expect.stringMatching(/words of the instruction/) } } })
  })
})
