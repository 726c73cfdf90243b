/** `VERDICT_CONTROLLER=on` and the cluster cannot be used. */
export class ControllerStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ControllerStartError'
  }
}
