import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { TokenService } from '../services/token-service.js'

export interface BootstrapResult {
  /** Where the secret was written, when one was generated. */
  tokenFile?: string
  tokenId?: string
}

/**
 * A service without tokens would be unusable: on an empty store, make an admin token, from
 * VERDICT_BOOTSTRAP_TOKEN when given, otherwise a new one written alone to a file only its owner
 * can read. The secret is never logged.
 */
export async function bootstrapAdminToken(tokens: TokenService, options: { tokenFile: string; bootstrapSecret?: string }): Promise<BootstrapResult> {
  if (!(await tokens.isEmpty())) return {}
  const created = await tokens.create({ name: 'bootstrap admin', owner: 'admin@verdict.local', scopes: ['admin'], ...(options.bootstrapSecret ? { secret: options.bootstrapSecret } : {}) })
  if (options.bootstrapSecret) return { tokenId: created.id }
  await mkdir(dirname(options.tokenFile), { recursive: true, mode: 0o700 })
  await writeFile(options.tokenFile, `${created.secret}\n`, { mode: 0o600 })
  // writeFile keeps the mode of an existing file; make sure it is owner-only either way.
  await chmod(options.tokenFile, 0o600)
  return { tokenFile: options.tokenFile, tokenId: created.id }
}
