import { request } from 'node:https'
import type { PeerCertificate } from 'node:tls'

export interface HttpsAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

export interface HttpsTarget {
  port: number
  /** The PEM the server's certificate must chain to: TLS is verified as the API server verifies it. */
  ca: Buffer
}

/** One request on a fresh connection, verified against `ca` for the name `localhost`. */
export function httpsRequest(target: HttpsTarget, method: string, path: string, body?: string | Buffer): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: target.port,
        servername: 'localhost',
        ca: target.ca,
        method,
        path,
        agent: false,
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** POST /validate as the API server calls it (with its `?timeout=` suffix). */
export function postReview(target: HttpsTarget, review: unknown): Promise<HttpsAnswer> {
  return httpsRequest(target, 'POST', '/validate?timeout=10s', typeof review === 'string' ? review : JSON.stringify(review))
}

/** The certificate a fresh TLS connection is served, verified against nothing (rotation tests compare fingerprints). */
export function servedCertificate(port: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false }, (response) => {
      const certificate = (response.socket as import('node:tls').TLSSocket).getPeerCertificate()
      response.resume()
      response.on('end', () => resolve(certificate))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}
