import { parseArgs } from 'node:util'
import { parseTimestamp } from '../services/rfc3339-timestamp.js'
import { SCOPES } from '../services/scopes.js'
import { InvalidRequestError } from '../services/service-errors.js'
import { TokenService, type TokenView } from '../services/token-service.js'
import type { CliContext } from './cli-context.js'
import { openConfiguredStore } from './store-access.js'
import { UsageError } from './usage-error.js'

export const tokenUsage = `verdict token create --name NAME --owner OWNER --scopes a,b [--expires 30d | --expires-at ISO] [-o json]
verdict token list [-o json]
verdict token revoke ID
  (each also takes --data-dir DIR or --database-url URL; default: the service's store)

Scopes: ${SCOPES.join(', ')}.
create prints the secret once; only its hash is stored.`

export async function runToken(argv: string[], print: (line: string) => void, _warn: (line: string) => void, context: CliContext): Promise<number> {
  const { db, rest } = await openConfiguredStore(argv, context)
  const tokens = new TokenService(db)
  try {
    const [action, ...args] = rest
    switch (action) {
      case 'create':
        return await create(tokens, args, print)
      case 'list':
        return await list(tokens, args, print)
      case 'revoke':
        return await revoke(tokens, args, print)
      default:
        throw new UsageError(`token: expected create, list or revoke${action ? `, got "${action}"` : ''}`)
    }
  } finally {
    await db.close()
  }
}

async function create(tokens: TokenService, args: string[], print: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      owner: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
      'expires-at': { type: 'string' },
      output: { type: 'string', short: 'o', default: 'text' },
    },
    strict: true,
  })
  if (!values.name) throw new UsageError('token create: --name is required')
  if (!values.owner) throw new UsageError('token create: --owner is required (the identity written to audits, e.g. ci@example.com)')
  if (!values.scopes) throw new UsageError('token create: --scopes is required (comma-separated)')
  const created = await tokens.create({
    name: values.name,
    owner: values.owner,
    scopes: values.scopes.split(',').map((scope) => scope.trim()).filter((scope) => scope !== ''),
    expiresAt: expiry(values.expires, values['expires-at']),
  })
  if (values.output === 'json') print(JSON.stringify(created, null, 2))
  else {
    print(`created token ${created.id} (${created.name}, owner ${created.owner}, scopes ${created.scopes.join(',')})`)
    print(`secret (shown once): ${created.secret}`)
  }
  return 0
}

async function list(tokens: TokenService, args: string[], print: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args, options: { output: { type: 'string', short: 'o', default: 'text' } }, strict: true })
  const all = await tokens.list()
  if (values.output === 'json') print(JSON.stringify(all, null, 2))
  else for (const token of all) print(describe(token))
  return 0
}

async function revoke(tokens: TokenService, args: string[], print: (line: string) => void): Promise<number> {
  if (args.length !== 1) throw new UsageError('token revoke: name exactly one token id')
  const token = await tokens.revoke(args[0] as string)
  print(`revoked ${describe(token)}`)
  return 0
}

function describe(token: TokenView): string {
  const state = token.revokedAt ? `revoked ${token.revokedAt}` : token.expiresAt ? `expires ${token.expiresAt}` : 'no expiry'
  return `${token.id}  ${token.name}  ${token.owner}  ${token.scopes.join(',')}  ${state}`
}

const DURATION = /^(\d+)([hdw])$/

function expiry(expires: string | undefined, expiresAt: string | undefined): Date | null {
  if (expires && expiresAt) throw new UsageError('token create: give --expires or --expires-at, not both')
  if (expiresAt) {
    try {
      return parseTimestamp('--expires-at', expiresAt)
    } catch (error) {
      if (error instanceof InvalidRequestError) throw new UsageError(`token create: ${error.details}`)
      throw error
    }
  }
  if (!expires) return null
  const match = DURATION.exec(expires)
  if (!match) throw new UsageError(`token create: --expires takes a duration such as 12h, 30d or 8w, got ${JSON.stringify(expires)}`)
  const hours = Number(match[1]) * { h: 1, d: 24, w: 168 }[match[2] as 'h' | 'd' | 'w']
  return new Date(Date.now() + hours * 3_600_000)
}
