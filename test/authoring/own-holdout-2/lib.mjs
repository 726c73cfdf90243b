// Builders and readers for the own-holdout-2 case files: those of ../own-holdout/lib.mjs, plus two readers of its own.
export * from '../own-holdout/lib.mjs';

// ---------------------------------------------------------------- extra readers (own-holdout-2)
/** Duration string ("500ms", "15s", "2m", "1h30m", "0s") -> seconds; throws on anything else. */
export function durSeconds(d) {
  const s = String(d).trim();
  if (!/^(\d+(ms|s|m|h|d|w))+$/.test(s)) throw new Error(`bad duration ${d}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  let total = 0;
  for (const [, n, u] of s.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(n) * unit[u];
  return total;
}
/** docker-compose byte size ("512m", "2g", "1048576") -> bytes (binary multiples, as compose uses). */
export function composeBytes(v) {
  if (typeof v === 'number') return v;
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(String(v).trim());
  if (!m) throw new Error(`bad size ${v}`);
  return Number(m[1]) * { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
}
