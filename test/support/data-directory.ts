import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A temporary directory for a data directory of Verdict's. mkdtemp makes it 0700; as root,
 * Verdict runs its embedded PostgreSQL as another user, which must be able to enter it.
 */
export function temporaryDataParent(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  chmodSync(dir, 0o755)
  return dir
}
