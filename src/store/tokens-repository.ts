import type { Queryable } from './db.js'
import { AlreadyExistsError, NotFoundError } from './store-errors.js'
import { isoTimestamp, isoTimestampOrNull, timestampParam } from './timestamps.js'

/** An API token as stored: the secret itself never is, only its hash. Times are ISO 8601 UTC strings. */
export interface StoredToken {
  id: string
  name: string
  owner: string
  scopes: string[]
  secretHash: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

interface TokenRow {
  id: string
  name: string
  owner: string
  scopes: string[]
  secret_hash: string
  created_at: Date
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
}

const COLUMNS = 'id, name, owner, scopes, secret_hash, created_at, expires_at, last_used_at, revoked_at'

/**
 * Throws AlreadyExistsError when the id or the secret hash is taken (a hash collision means a
 * reused secret, which must never become a second token).
 */
export async function insertToken(q: Queryable, token: StoredToken): Promise<StoredToken> {
  const result = await q.query<TokenRow>(
    `INSERT INTO api_tokens (${COLUMNS})
     VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      token.id,
      token.name,
      token.owner,
      token.scopes,
      token.secretHash,
      timestampParam(token.createdAt),
      optionalTime(token.expiresAt),
      optionalTime(token.lastUsedAt),
      optionalTime(token.revokedAt),
    ],
  )
  const row = result.rows[0]
  if (!row) throw new AlreadyExistsError('token', token.id)
  return toToken(row)
}

/** Revoked and expired tokens too: telling them apart is the caller's job. */
export async function findTokenByHash(q: Queryable, secretHash: string): Promise<StoredToken | undefined> {
  const result = await q.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE secret_hash = $1`, [secretHash])
  const row = result.rows[0]
  return row ? toToken(row) : undefined
}

export async function getToken(q: Queryable, id: string): Promise<StoredToken | undefined> {
  const result = await q.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE id = $1`, [id])
  const row = result.rows[0]
  return row ? toToken(row) : undefined
}

/** Oldest first. */
export async function listTokens(q: Queryable): Promise<StoredToken[]> {
  const result = await q.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at, id`)
  return result.rows.map(toToken)
}

/**
 * Marks the token revoked; revoking again keeps the first revocation time. Throws NotFoundError.
 * Other replicas learn of it when the caller NOTIFYs `verdict_tokens` (TokenService does).
 */
export async function revokeToken(q: Queryable, id: string, at: Date): Promise<StoredToken> {
  const result = await q.query<TokenRow>(
    `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, timestampParam(at)],
  )
  const row = result.rows[0]
  if (!row) throw new NotFoundError('token', id)
  return toToken(row)
}

/** Never moves lastUsedAt backwards, so replicas touching one token out of order agree. Unknown ids are ignored. */
export async function touchTokenLastUsed(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)', [
    id,
    timestampParam(at),
  ])
}

/**
 * All tokens ever made, revoked and expired included; with `activeAt`, only those usable at
 * that moment (not revoked, not expired).
 */
export async function countTokens(q: Queryable, options: { activeAt?: Date } = {}): Promise<number> {
  const result = options.activeAt
    ? await q.query<{ count: number }>(
        'SELECT count(*) AS count FROM api_tokens WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)',
        [timestampParam(options.activeAt)],
      )
    : await q.query<{ count: number }>('SELECT count(*) AS count FROM api_tokens')
  return Number(result.rows[0]?.count ?? 0)
}

function toToken(row: TokenRow): StoredToken {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    scopes: row.scopes,
    secretHash: row.secret_hash,
    createdAt: isoTimestamp(row.created_at),
    expiresAt: isoTimestampOrNull(row.expires_at),
    lastUsedAt: isoTimestampOrNull(row.last_used_at),
    revokedAt: isoTimestampOrNull(row.revoked_at),
  }
}

function optionalTime(value: string | null): string | null {
  return value === null ? null : timestampParam(value)
}
