// Builders and readers for the own-holdout-3 case files: those of ../own-holdout-2/lib.mjs
// (which re-exports ../own-holdout/lib.mjs), plus a few small readers of its own.
export * from '../own-holdout-2/lib.mjs';

// ---------------------------------------------------------------- extra readers (own-holdout-3)
/** IPv4 CIDR "a.b.c.d/n" -> {addr (uint32), bits}; null when not an IPv4 CIDR. */
export function cidr4(s) {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(String(s ?? ''));
  if (!m) return null;
  const oct = m.slice(1, 5).map(Number);
  const bits = Number(m[5]);
  if (oct.some((o) => o > 255) || bits > 32) return null;
  return { addr: ((oct[0] << 24) >>> 0) + (oct[1] << 16) + (oct[2] << 8) + oct[3], bits };
}
/** true when CIDR `inner` lies entirely inside CIDR `outer` (both IPv4 strings). */
export function cidrWithin(inner, outer) {
  const a = cidr4(inner);
  const b = cidr4(outer);
  if (!a || !b || a.bits < b.bits) return false;
  const mask = b.bits === 0 ? 0 : (0xffffffff << (32 - b.bits)) >>> 0;
  return ((a.addr & mask) >>> 0) === ((b.addr & mask) >>> 0);
}
/** RFC 1918 private IPv4 range check for a CIDR string. */
export const isPrivateCidr = (s) => ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].some((r) => cidrWithin(s, r));

/** Strict semantic version X.Y.Z with optional -prerelease and +build (semver.org 2.0). */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
export const isSemver = (s) => typeof s === 'string' && SEMVER.test(s);

/** true for an absolute https:// URL with a host. */
export function isHttpsUrl(s) {
  if (typeof s !== 'string') return false;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Whole days between two ISO dates (yyyy-mm-dd or full timestamps), b - a. */
export const daysBetween = (a, b) => (Date.parse(b) - Date.parse(a)) / 86400000;
