import type { KubeConfig } from '@kubernetes/client-node'
import { request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface KubeResponse {
  status: number
  body: unknown
}

/** Answers larger than this are refused: a LIST page of `limit` objects stays far below it. */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024

/**
 * One JSON request to the API server with the credentials of `kubeConfig`, for paths the typed
 * clients do not cover (a LIST of any resource, core or not, page by page; Events). The status is
 * returned, not thrown: a 410 in the middle of a paged list is an answer the caller acts on.
 */
export async function kubeRequest(
  kubeConfig: KubeConfig,
  method: string,
  path: string,
  query: Record<string, string> = {},
  body?: unknown,
  options: { contentType?: string; timeoutMs?: number } = {},
): Promise<KubeResponse> {
  const server = kubeConfig.getCurrentCluster()?.server
  if (!server) throw new Error('no current cluster in the Kubernetes configuration')
  const url = new URL(server)
  // The server URL may carry a path prefix (a proxy): keep it.
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path}`
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  const requestOptions: RequestOptions = { method, headers: { accept: 'application/json' } }
  await kubeConfig.applyToHTTPSOptions(requestOptions)
  const plain = url.protocol === 'http:'
  // applyToHTTPSOptions may set a TLS agent, which a plain-HTTP server (a local proxy) cannot use.
  if (plain) delete requestOptions.agent
  const payload = body === undefined ? undefined : JSON.stringify(body)
  if (payload !== undefined) {
    requestOptions.headers = { ...requestOptions.headers, 'content-type': options.contentType ?? 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
  }
  return new Promise<KubeResponse>((resolve, reject) => {
    const call = (plain ? httpRequest : httpsRequest)(url, requestOptions, (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_RESPONSE_BYTES) {
          response.destroy(new Error(`the API server's answer to ${method} ${path} is larger than ${MAX_RESPONSE_BYTES} bytes`))
          return
        }
        chunks.push(chunk)
      })
      response.on('error', reject)
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let parsed: unknown = text
        try {
          parsed = text === '' ? undefined : JSON.parse(text)
        } catch {
          // Not JSON (a proxy's error page): the caller gets the text.
        }
        resolve({ status: response.statusCode ?? 0, body: parsed })
      })
    })
    call.on('error', reject)
    if (options.timeoutMs !== undefined) {
      const timeoutMs = options.timeoutMs
      call.setTimeout(timeoutMs, () => call.destroy(new Error(`the API server did not answer ${method} ${path} within ${timeoutMs} ms`)))
    }
    if (payload !== undefined) call.write(payload)
    call.end()
  })
}
