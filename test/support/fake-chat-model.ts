import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedChatRequest {
  path: string
  authorization: string | undefined
  body: { model?: string; temperature?: number; messages?: Array<{ role: string; content: string }> }
}

/**
 * A local HTTP server speaking the OpenAI chat completions protocol: each POST gets the next
 * scripted answer (a string becomes choices[0].message.content; a number is an HTTP error status).
 */
export class FakeChatModel {
  readonly requests: RecordedChatRequest[] = []
  #answers: Array<string | number> = []
  #server: Server | undefined
  url = ''

  answerNext(...answers: Array<string | number>): void {
    this.#answers.push(...answers)
  }

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      let raw = ''
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      request.on('end', () => {
        this.requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(raw) as RecordedChatRequest['body'] })
        const answer = this.#answers.shift() ?? 500
        if (typeof answer === 'number') {
          response.writeHead(answer, { 'content-type': 'application/json' }).end('{"error":{"message":"scripted failure"}}')
          return
        }
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }))
      })
    })
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`
    return this
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
  }
}
