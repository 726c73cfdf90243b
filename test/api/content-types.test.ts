import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, expectError, expectStamped, startServer, type TestServer } from './test-server.js'

describe('content types and body limits', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ config: { bodyLimit: 2048 } })
  })
  afterAll(() => server.close())

  const post = (path: string, body: string | Uint8Array, contentType?: string): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { ...bearer('writer-secret'), ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      body,
    })

  it('takes JSON, keeps the text as sent and records the format', async () => {
    const text = '{ "inputData": {"kind": "Pod"},\n  "labels": {"team": "shop"} }'
    const response = await post('/api/things/web', text, 'application/json; charset=utf-8')
    expectStamped(response)
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ name: 'web', format: 'json', raw: text, body: { inputData: { kind: 'Pod' }, labels: { team: 'shop' } } })
  })

  it.each(['application/x-yaml', 'application/yaml', 'text/yaml'])('takes YAML as %s where the route accepts it', async (type) => {
    const text = 'inputData:\n  kind: Pod\n  spec: {replicas: 3, enabled: true, created: 2024-01-01}\nlabels:\n  team: shop\n'
    const response = await post('/api/things/web', text, type)
    expectStamped(response)
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({
      name: 'web',
      format: 'yaml',
      raw: text,
      body: { inputData: { kind: 'Pod', spec: { replicas: 3, enabled: true, created: '2024-01-01' } }, labels: { team: 'shop' } },
    })
  })

  it('reads YAML merge keys as kubectl does', async () => {
    const text = 'base: &base {kind: Pod}\ninputData:\n  <<: *base\n  name: web\n'
    const response = await post('/api/things/web', text, 'application/yaml')
    expect(((await response.json()) as { body: unknown }).body).toEqual({ base: { kind: 'Pod' }, inputData: { kind: 'Pod', name: 'web' } })
  })

  it('validates a YAML body against the same schema, naming the field', async () => {
    await expectError(await post('/api/things/web', 'labels: {}\n', 'text/yaml'), 400, 'bad request', 'body.inputData is required')
    await expectError(await post('/api/things/web', '# nothing here\n', 'text/yaml'), 400, 'bad request', 'body is required')
  })

  it('answers 415 to YAML on a route that takes only JSON', async () => {
    const response = await fetch(`${server.url}/api/json-only`, {
      method: 'POST',
      headers: { ...bearer('writer-secret'), 'content-type': 'application/x-yaml' },
      body: 'inputData: {}',
    })
    await expectError(response, 415, 'unsupported media type', 'Content-Type application/x-yaml is not supported; send application/json')
  })

  it('answers 415 to other types, listing what the route accepts', async () => {
    await expectError(
      await post('/api/things/web', 'inputData', 'text/plain'),
      415,
      'unsupported media type',
      'Content-Type text/plain is not supported; send application/json, application/x-yaml, application/yaml, text/yaml',
    )
    await expectError(
      await post('/api/json-only', '<x/>', 'application/xml'),
      415,
      'unsupported media type',
      'Content-Type application/xml is not supported; send application/json',
    )
  })

  it('answers 415 to a body without Content-Type', async () => {
    const response = await post('/api/json-only', new TextEncoder().encode('{"inputData": {}}'))
    await expectError(response, 415, 'unsupported media type', 'a body without Content-Type is not supported; send application/json')
  })

  it('names the problem in malformed YAML', async () => {
    const response = await post('/api/things/web', 'inputData:\n  kind: [Pod\nlabels: {}\n', 'application/x-yaml')
    await expectError(response, 400, 'bad request', /^body is not valid YAML: .* at line \d+, column \d+$/)
  })

  it('refuses YAML tags outside the core schema', async () => {
    const response = await post('/api/things/web', 'inputData: !!binary aGVsbG8=\n', 'application/x-yaml')
    await expectError(response, 400, 'bad request', /^body is not valid YAML: unknown scalar tag .*binary> at line 1, column 12$/)
  })

  it('refuses more than one YAML document', async () => {
    const response = await post('/api/things/web', 'inputData: {}\n---\ninputData: {}\n', 'application/x-yaml')
    await expectError(response, 400, 'bad request', 'body holds 2 YAML documents; send one')
  })

  it('refuses __proto__ keys in YAML', async () => {
    const response = await post('/api/things/web', 'inputData:\n  __proto__: {admin: true}\n', 'application/x-yaml')
    await expectError(response, 400, 'bad request', 'body must not contain "__proto__" keys')
  })

  it('answers 413 to YAML aliases that expand beyond the body limit', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 6; level += 1) {
      const previous = String.fromCharCode(96 + level)
      const name = String.fromCharCode(97 + level)
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`)
    }
    const text = `inputData:\n${levels.map((line) => `  ${line}`).join('\n')}\n`
    expect(text.length).toBeLessThan(2048)
    await expectError(await post('/api/things/web', text, 'application/x-yaml'), 413, 'payload too large', 'YAML aliases expand the body beyond 2048 values')
  })

  it('answers 413 to a body over the limit', async () => {
    const text = JSON.stringify({ inputData: { padding: 'x'.repeat(3000) } })
    await expectError(await post('/api/things/web', text, 'application/json'), 413, 'payload too large', 'request body exceeds the limit of 2048 bytes')
  })

  it('answers 413 to a chunked body that grows over the limit', async () => {
    const chunks = [new TextEncoder().encode('{"inputData": {"padding": "'), new TextEncoder().encode('x'.repeat(3000)), new TextEncoder().encode('"}}')]
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift()
        if (chunk) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const response = await fetch(`${server.url}/api/things/web`, {
      method: 'POST',
      headers: { ...bearer('writer-secret'), 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)
    await expectError(response, 413, 'payload too large', 'request body exceeds the limit of 2048 bytes')
  })
})
