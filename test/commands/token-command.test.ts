import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { temporaryDataParent } from '../support/data-directory.js'
import { runCli } from './run-cli.js'

/** `verdict token` and `verdict migrate` on an embedded store of their own. */
describe('verdict token and verdict migrate', () => {
  const dir = temporaryDataParent('verdict-cli-store-')
  const store = ['--data-dir', join(dir, 'data')]

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('migrates an empty store, then finds nothing left to do', async () => {
    const first = await runCli(['migrate', ...store])
    expect(first.stdout).toMatch(/^applied 001-initial\n/)
    expect(first.status).toBe(0)
    expect((await runCli(['migrate', ...store])).stdout).toBe('the schema is up to date\n')
  })

  it('creates, lists and revokes tokens, showing the secret once', async () => {
    const created = await runCli(['token', 'create', '--name', 'ci', '--owner', 'ci@example.com', '--scopes', 'eval,audits:read', '--expires', '30d', '-o', 'json', ...store])
    expect(created.status).toBe(0)
    const token = JSON.parse(created.stdout) as { id: string; secret: string; scopes: string[]; expiresAt: string }
    expect(token.secret).toMatch(/^vdt_[A-Za-z0-9_-]{43}$/)
    expect(token.scopes).toEqual(['eval', 'audits:read'])
    const listed = await runCli(['token', 'list', ...store])
    expect(listed.stdout).toContain(`${token.id}  ci  ci@example.com  eval,audits:read  expires ${token.expiresAt}`)
    expect(listed.stdout).not.toContain(token.secret)
    const revoked = await runCli(['token', 'revoke', token.id, ...store])
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${token.id}  ci  .*revoked \\d{4}-`))
  })

  it('exits 2 naming the problem for bad input', async () => {
    expect((await runCli(['token', 'create', '--name', 'x', '--owner', 'x@example.com', '--scopes', 'root', ...store])).stderr).toMatch(/^verdict token: scopes: unknown scope "root"/)
    expect((await runCli(['token', 'create', '--name', 'x', '--owner', 'x@example.com', '--scopes', 'eval', '--expires', 'soon', ...store])).stderr).toMatch(/--expires takes a duration/)
    expect((await runCli(['token', 'create', '--name', 'x', '--owner', 'x@example.com', '--scopes', 'eval', '--expires-at', '2099-02-30T00:00:00Z', ...store])).stderr).toBe(
      'verdict token: token create: --expires-at: "2099-02-30T00:00:00Z" is not an ISO 8601 date-time (RFC 3339) such as 2026-01-31T12:00:00Z: 2099-02 has 28 days\n',
    )
    expect((await runCli(['token', 'revoke', 'tok_nope', ...store])).stderr).toBe('verdict token: token "tok_nope" does not exist\n')
    expect((await runCli(['token', 'frob', ...store])).status).toBe(2)
    expect((await runCli(['serve', '--api-port', '99999'])).stderr).toMatch(/--api-port must be an integer 0-65535, got "99999"/)
  })
})
