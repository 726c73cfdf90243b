// Builders and readers for the own-holdout-4 case files: those of ../own-holdout-3/lib.mjs
// (which re-exports ../own-holdout-2/lib.mjs and ../own-holdout/lib.mjs), plus a few of its own.
export * from '../own-holdout-3/lib.mjs';

// ---------------------------------------------------------------- extra readers (own-holdout-4)
/**
 * The value a container ends up with for a securityContext field: the container's own
 * securityContext wins, otherwise the pod-level securityContext, otherwise undefined.
 */
export const effectiveSc = (spec, c, field) => c.securityContext?.[field] ?? spec.securityContext?.[field];

/** Prefix length of an IPv4 or IPv6 CIDR string ("10.0.0.0/16" -> 16); NaN when malformed. */
export const prefixLen = (s) => {
  const m = /\/(\d{1,3})$/.exec(String(s ?? ''));
  return m ? Number(m[1]) : NaN;
};

/** Host of an absolute URL, or null when it does not parse. */
export function urlHost(s) {
  try {
    return new URL(s).hostname;
  } catch {
    return null;
  }
}

/** true when host equals `domain` or is a subdomain of it (dot-anchored, no look-alikes). */
export const inDomain = (host, domain) => typeof host === 'string' && (host === domain || host.endsWith(`.${domain}`));

/** Steps of every job in a GitHub Actions workflow document. */
export const workflowSteps = (wf) => Object.values(wf.jobs ?? {}).flatMap((j) => j.steps ?? []);
