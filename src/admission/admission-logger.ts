/** The logging the webhook needs; a pino logger (the service's) is one. */
export interface AdmissionLogger {
  debug(fields: object, message: string): void
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

export const SILENT_LOGGER: AdmissionLogger = { debug() {}, info() {}, warn() {}, error() {} }
