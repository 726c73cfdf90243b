import { crc32 } from 'node:zlib'
import type { AuditRows, PolicyAuditRow, RulesetAuditRow } from '../store/audits-repository.js'

/**
 * One spooled evaluation as one line: `crc32-hex json\n`. JSON never holds a raw newline, so a
 * line is a record; the checksum tells a record torn by a crash (or damaged on disk) from a
 * whole one, since a torn write can still end on a newline that belonged to nothing.
 */
export function encodeSpoolRecord(rows: AuditRows): Buffer {
  const json = JSON.stringify({ v: 1, rows })
  const body = Buffer.from(json, 'utf8')
  const line = Buffer.allocUnsafe(9 + body.length + 1)
  line.write(crc32(body).toString(16).padStart(8, '0'), 0, 'latin1')
  line[8] = 0x20
  body.copy(line, 9)
  line[line.length - 1] = 0x0a
  return line
}

export type DecodedRecord = { ok: true; rows: AuditRows } | { ok: false; reason: string }

/** A line without its newline. */
export function decodeSpoolRecord(line: Buffer): DecodedRecord {
  if (line.length < 10 || line[8] !== 0x20) return { ok: false, reason: 'not a spool record' }
  const body = line.subarray(9)
  const expected = Number.parseInt(line.toString('latin1', 0, 8), 16)
  if (!Number.isSafeInteger(expected) || crc32(body) !== expected) return { ok: false, reason: 'checksum mismatch' }
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return { ok: false, reason: 'not JSON' }
  }
  if (!isRecord(parsed) || parsed.v !== 1 || !isRecord(parsed.rows)) return { ok: false, reason: 'unknown record version' }
  const rows = parsed.rows
  if (!Array.isArray(rows.policyAudits) || !Array.isArray(rows.rulesetAudits)) return { ok: false, reason: 'no audit rows' }
  return {
    ok: true,
    rows: {
      policyAudits: rows.policyAudits.map((row: PolicyAuditRow) => withDate(row)),
      rulesetAudits: rows.rulesetAudits.map((row: RulesetAuditRow) => withDate(row)),
    },
  }
}

/** JSON carried updatedAt as an ISO string; the store wants the Date back. */
function withDate<T extends { updatedAt?: Date }>(row: T): T {
  const at = row.updatedAt as unknown
  return typeof at === 'string' ? { ...row, updatedAt: new Date(at) } : row
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
