import type { Db } from '../store/db.js'
import {
  countTokens,
  findTokenByHash,
  getToken,
  insertToken,
  listTokens,
  revokeToken,
  touchTokenLastUsed,
  type StoredToken,
} from '../store/tokens-repository.js'
import { unstorableCharacterIn } from '../store/storable-text.js'
import { grants, isScope, SCOPES, type Scope } from './scopes.js'
import { ForbiddenError, InvalidRequestError, NotFoundError } from './service-errors.js'
import { ownerProblem } from './token-owner.js'
import { hashTokenSecret, looksLikeTokenSecret, newTokenId, newTokenSecret, sameHash } from './token-secret.js'

/** A token as shown to users: never its secret or hash. */
export interface TokenView {
  id: string
  name: string
  owner: string
  scopes: string[]
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

/** Returned once, at creation: the only time the secret exists outside its holder. */
export interface CreatedToken extends TokenView {
  secret: string
}

export interface NewToken {
  name: string
  owner: string
  scopes: readonly string[]
  expiresAt?: Date | null
  /**
   * The scopes of the token asking for this one, when a token asks (the REST API): it may grant
   * only scopes it holds itself, `admin` holding all, or a `tokens:manage` token could mint an
   * admin one. Absent for the operator's own tools (CLI, bootstrap), which hold the store itself.
   */
  grantedBy?: readonly string[]
  /** Only for VERDICT_BOOTSTRAP_TOKEN: a secret chosen by the operator instead of a generated one. */
  secret?: string
}

export interface Principal {
  tokenId: string
  owner: string
  scopes: readonly string[]
}

const TOKENS_CHANNEL = 'verdict_tokens'
/** A known token is re-read from the store at most this often; revocations arrive by NOTIFY at once. */
const CACHE_MS = 30_000
/** lastUsedAt is a hint for people, not an audit: one write a minute per token is plenty. */
const TOUCH_EVERY_MS = 60_000
/** C0 and C1 controls and DEL: a token name is read in lists and logs, where they would hide or forge text. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

interface CachedToken {
  token: StoredToken
  readAt: number
  touchedAt: number
}

export class TokenService {
  readonly #db: Db
  readonly #now: () => Date
  readonly #byHash = new Map<string, CachedToken>()
  #unlisten: (() => Promise<void>) | undefined

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db
    this.#now = now
  }

  /** Follows revocations made by any replica. */
  async start(): Promise<void> {
    this.#unlisten = await this.#db.listen(TOKENS_CHANNEL, (id) => this.#forget(id), {
      // A revocation announced while the listener was reconnecting is lost: re-read every token.
      onReconnect: () => this.#byHash.clear(),
    })
  }

  async stop(): Promise<void> {
    await this.#unlisten?.()
    this.#unlisten = undefined
  }

  async create(request: NewToken): Promise<CreatedToken> {
    const name = request.name.trim()
    if (name === '' || name.length > 100) throw new InvalidRequestError('name must be 1-100 characters')
    if (CONTROL.test(name) || unstorableCharacterIn(name)) throw new InvalidRequestError('name must not hold control characters or unpaired surrogates')
    const owner = ownerProblem(request.owner)
    if (owner) throw new InvalidRequestError(owner)
    if (request.scopes.length === 0) throw new InvalidRequestError('scopes must name at least one scope')
    const unknown = request.scopes.filter((scope) => !isScope(scope))
    if (unknown.length > 0) throw new InvalidRequestError(`scopes: unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; known: ${SCOPES.join(', ')}`)
    if (request.grantedBy) refuseUnheldScopes(request.grantedBy, request.scopes as readonly Scope[])
    const now = this.#now()
    if (request.expiresAt && request.expiresAt.getTime() <= now.getTime()) throw new InvalidRequestError('expiresAt must be in the future')
    if (request.secret !== undefined && !looksLikeTokenSecret(request.secret)) {
      throw new InvalidRequestError('the token secret must be "vdt_" followed by at least 32 letters, digits, "-" or "_"')
    }
    const secret = request.secret ?? newTokenSecret()
    const token: StoredToken = {
      id: newTokenId(),
      name,
      owner: request.owner,
      scopes: [...new Set(request.scopes)],
      secretHash: hashTokenSecret(secret),
      createdAt: now.toISOString(),
      expiresAt: request.expiresAt ? request.expiresAt.toISOString() : null,
      lastUsedAt: null,
      revokedAt: null,
    }
    await insertToken(this.#db, token)
    return { ...viewOf(token), secret }
  }

  async list(): Promise<TokenView[]> {
    return (await listTokens(this.#db)).map(viewOf)
  }

  async get(id: string): Promise<TokenView> {
    const token = await getToken(this.#db, id)
    if (!token) throw new NotFoundError('token', id)
    return viewOf(token)
  }

  /** Revoking twice is not an error: the token stays revoked as of the first time. */
  async revoke(id: string): Promise<TokenView> {
    const token = await getToken(this.#db, id)
    if (!token) throw new NotFoundError('token', id)
    if (!token.revokedAt) {
      await revokeToken(this.#db, id, this.#now())
      this.#forget(id)
      await this.#db.notify(TOKENS_CHANNEL, id)
    }
    return this.get(id)
  }

  async isEmpty(): Promise<boolean> {
    return (await countTokens(this.#db)) === 0
  }

  /** The principal behind a bearer secret, or null for anything unknown, expired or revoked. */
  async authenticate(secret: string): Promise<Principal | null> {
    if (!looksLikeTokenSecret(secret)) return null
    const hash = hashTokenSecret(secret)
    const nowMs = this.#now().getTime()
    let cached = this.#byHash.get(hash)
    if (!cached || nowMs - cached.readAt > CACHE_MS) {
      const token = await findTokenByHash(this.#db, hash)
      if (!token || !sameHash(token.secretHash, hash)) {
        this.#byHash.delete(hash)
        return null
      }
      cached = { token, readAt: nowMs, touchedAt: cached?.touchedAt ?? 0 }
      this.#byHash.set(hash, cached)
    }
    const { token } = cached
    if (token.revokedAt) return null
    if (token.expiresAt && Date.parse(token.expiresAt) <= nowMs) return null
    if (nowMs - cached.touchedAt > TOUCH_EVERY_MS) {
      cached.touchedAt = nowMs
      await touchTokenLastUsed(this.#db, token.id, new Date(nowMs))
    }
    return { tokenId: token.id, owner: token.owner, scopes: token.scopes }
  }

  #forget(id: string): void {
    for (const [hash, cached] of this.#byHash) if (cached.token.id === id) this.#byHash.delete(hash)
  }
}

/** A 403 naming every requested scope the granting token does not hold. */
function refuseUnheldScopes(held: readonly string[], requested: readonly Scope[]): void {
  const unheld = [...new Set(requested.filter((scope) => !grants(held, scope)))]
  if (unheld.length === 0) return
  const named = unheld.length === 1 ? `the scope ${unheld[0]}` : `the scopes ${unheld.join(', ')}`
  throw new ForbiddenError(`scopes: the token lacks ${named}, so it cannot grant ${unheld.length === 1 ? 'it' : 'them'}; a token may grant only scopes it holds`, unheld)
}

export function viewOf(token: StoredToken): TokenView {
  return {
    id: token.id,
    name: token.name,
    owner: token.owner,
    scopes: token.scopes,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    revokedAt: token.revokedAt,
  }
}

export type { Scope }
