import { expect } from 'vitest'

export interface ApiResponse {
  status: number
  headers: Headers
  /** Parsed JSON, or the raw text when the body is not JSON, or undefined when empty. */
  body: unknown
}

export interface RequestOptions {
  token?: string
  body?: unknown
  /** Sent as is instead of JSON; set contentType with it. */
  raw?: string
  contentType?: string
  headers?: Record<string, string>
}

/** A tiny client for the real server: every test goes through HTTP. */
export function client(baseUrl: string) {
  return async (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    let body: string | undefined
    if (options.raw !== undefined) {
      body = options.raw
      headers['content-type'] = options.contentType ?? 'application/json'
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] = options.contentType ?? 'application/json'
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    let parsed: unknown
    if (text !== '') {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
}

/** The body of an error answer, after checking it has exactly the `{error, details}` shape. */
export function errorBody(response: ApiResponse): { error: string; details: string } {
  expect(Object.keys(response.body as object).sort()).toEqual(['details', 'error'])
  return response.body as { error: string; details: string }
}
