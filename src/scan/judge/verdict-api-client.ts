import { ScanInputError } from '../scan-error.js'

export interface ApiClientOptions {
  /** Tests answer quickly; the CLI waits as long as the server asks. */
  sleep?: (milliseconds: number) => Promise<void>
  maxRetries?: number
}

const MAX_RETRY_AFTER_SECONDS = 60

/**
 * The few calls a scan makes to a Verdict REST API, with the bearer token. A 429 is waited out
 * (Retry-After) and retried, since a CI scan of many objects may outrun its token's rate limit;
 * any other refusal stops the scan with the server's own `{error, details}`.
 */
export class VerdictApiClient {
  readonly #base: string
  readonly #token: string
  readonly #sleep: (milliseconds: number) => Promise<void>
  readonly #maxRetries: number

  constructor(baseUrl: string, token: string, options: ApiClientOptions = {}) {
    let url: URL
    try {
      url = new URL(baseUrl)
    } catch {
      throw new ScanInputError(`--server must be an http(s) URL, not "${baseUrl}"`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ScanInputError(`--server must be an http(s) URL, not "${baseUrl}"`)
    this.#base = url.href.replace(/\/+$/, '')
    this.#token = token
    this.#sleep = options.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)))
    this.#maxRetries = options.maxRetries ?? 5
  }

  get(path: string): Promise<unknown> {
    return this.#request('GET', path, undefined)
  }

  post(path: string, body: unknown): Promise<unknown> {
    return this.#request('POST', path, JSON.stringify(body))
  }

  async #request(method: string, path: string, body: string | undefined): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}`, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    for (let attempt = 0; ; attempt += 1) {
      let response: Response
      try {
        response = await fetch(`${this.#base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
      } catch (error) {
        throw new ScanInputError(`cannot reach ${this.#base}: ${causeOf(error)}`)
      }
      const text = await response.text()
      if (response.status === 429 && attempt < this.#maxRetries) {
        await this.#sleep(retryAfterSeconds(response.headers.get('retry-after')) * 1000)
        continue
      }
      if (!response.ok) throw new ScanInputError(`${method} ${path} answered ${response.status}: ${refusal(text)}`)
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new ScanInputError(`${method} ${path} answered ${response.status} with a body that is not JSON`)
      }
    }
  }
}

function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header)
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, MAX_RETRY_AFTER_SECONDS) : 1
}

function refusal(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown }
    if (typeof body.error === 'string') return typeof body.details === 'string' ? `${body.error}: ${body.details}` : body.error
  } catch {
    // Not the API's error shape (a proxy's page): show its start.
  }
  return text.slice(0, 200) || '(empty body)'
}

/** fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND) in its cause. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}
