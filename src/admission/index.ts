// The admission webhook's public surface, for the composition root (src/server/start-server.ts).
export { startAdmissionServer, type AdmissionServer, type AdmissionServerConfig, type AdmissionServerDeps, type ReviewReport } from './admission-server.js'
export type { AdmissionLogger } from './admission-logger.js'
export { NO_NAMESPACES, type NamespaceSource } from './namespace-source.js'
