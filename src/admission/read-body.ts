import type { IncomingMessage } from 'node:http'

export type BodyRead = { text: string; tooLarge?: undefined } | { text?: undefined; tooLarge: true }

/** The request body as UTF-8 text, or `tooLarge` as soon as it passes `limit` bytes (the rest is not read). */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ tooLarge: true })
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        request.off('data', onData)
        resolve({ tooLarge: true })
        return
      }
      chunks.push(chunk)
    }
    request.on('data', onData)
    request.once('end', () => resolve({ text: Buffer.concat(chunks, size).toString('utf8') }))
    request.once('error', reject)
  })
}
