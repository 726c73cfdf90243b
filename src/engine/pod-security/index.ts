// The Pod Security Standards controls as CEL checks, shared by the authoring catalog (which builds
// rules from instructions) and the Kyverno importer (which translates validate.podSecurity). They
// live beside the engine because both sides already depend on it and neither should depend on the
// other; like autogen's pod-controller table, they are Kubernetes knowledge with no I/O.
export * from './version.js'
export * from './reading.js'
export * from './pod-security-check.js'
export * from './requirements.js'
export * from './cel-text.js'
export * from './baseline-checks.js'
export * from './restricted-checks.js'
