// Builders and readers for the own-holdout-5 case files: those of ../own-holdout-4/lib.mjs
// (which re-exports ../own-holdout-3, ../own-holdout-2 and ../own-holdout), plus a few of its own.
export * from '../own-holdout-4/lib.mjs';

// ---------------------------------------------------------------- extra readers (own-holdout-5)
/**
 * ingress-nginx size string -> bytes. Plain number = bytes; k/K, m/M, g/G are 1024-based
 * (nginx's own size syntax). Throws on anything else.
 */
export function nginxBytes(v) {
  const m = /^(\d+)([kKmMgG]?)$/.exec(String(v).trim());
  if (!m) throw new Error(`bad nginx size ${v}`);
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
  return Number(m[1]) * mult;
}

/** Log-rotation size string ("512KB", "100MB", "1GB", 1024-based) -> bytes; throws on anything else. */
export function logBytes(v) {
  const m = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)$/i.exec(String(v).trim());
  if (!m) throw new Error(`bad size ${v}`);
  return Number(m[1]) * { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[m[2].toLowerCase()];
}

/**
 * Hours a cron hour field (the 2nd of 5 fields) allows: numbers, comma lists and a-b ranges.
 * Returns null for `*` or any step (`*\/4`, `1-5/2`), which the scheduler case treats as "any hour".
 */
export function cronHours(expr) {
  const field = String(expr).trim().split(/\s+/)[1];
  if (field === undefined || field.includes('*') || field.includes('/')) return null;
  const hours = [];
  for (const part of field.split(',')) {
    const m = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let h = a; h <= b; h++) hours.push(h);
  }
  return hours;
}

/** A value that may be a single string or a list of strings (IAM policy fields) -> list. */
export const asList = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** true for a JSON number that is a whole number. */
export const isInt = (n) => typeof n === 'number' && Number.isInteger(n);
