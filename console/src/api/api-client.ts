/** An answer of the API that is not a success: its status and `{error, details}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string,
  ) {
    super(`${error}: ${details}`)
  }
}

export interface RequestOptions {
  method?: string
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  /** Sent as is, with this content type (YAML for a ruleset edited as YAML). */
  text?: { body: string; contentType: string }
}

/**
 * The console's only way out: relative requests to the service's own REST API, with the tab's
 * token. Whatever a screen shows is what these requests answered. A 401 means the token is no
 * longer valid (revoked, expired): `onUnauthorized` signs the tab out.
 */
export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized: () => void,
  ) {}

  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') query.set(key, String(value))
    const url = `${path}${query.size > 0 ? `?${query.toString()}` : ''}`
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' }
    let body: string | undefined
    if (options.text) {
      headers['content-type'] = options.text.contentType
      body = options.text.body
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    }
    const response = await fetch(url, { method: options.method ?? 'GET', headers, ...(body === undefined ? {} : { body }), credentials: 'omit', cache: 'no-store' })
    if (response.status === 204) return undefined as T
    const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      if (response.status === 401) this.onUnauthorized()
      throw new ApiError(response.status, String(payload.error ?? response.statusText), String(payload.details ?? ''))
    }
    return payload as T
  }
}

/** Checks a token before the tab keeps it: the scopes it holds, or why it is refused. */
export async function whoAmI(token: string): Promise<WhoAmI> {
  return new ApiClient(token, () => {}).request<WhoAmI>('/api/auth/whoami')
}

export interface WhoAmI {
  tokenId?: string
  owner?: string
  scopes: string[]
}
