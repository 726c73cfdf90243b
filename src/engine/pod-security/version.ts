/**
 * A version of the Pod Security Standards: the minor of the Kubernetes release v1.x whose checks
 * apply. The standard has only ever changed within v1, so the minor alone orders versions, and
 * "latest" is a number above them all, so every check takes its newest form.
 */
export type PodSecurityVersion = number

export const LATEST_POD_SECURITY_VERSION: PodSecurityVersion = Number.POSITIVE_INFINITY

/** From this version the restricted checks that only make sense on Linux skip pods whose spec.os.name is windows. */
export const WINDOWS_EXEMPTION_VERSION: PodSecurityVersion = 25
