import { PassThrough } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { serviceLoggerOptions } from '../../src/server/service-logger.js'

function terminal(isTTY: boolean): PassThrough & { isTTY: boolean; text: () => string } {
  const chunks: string[] = []
  const stream = Object.assign(new PassThrough(), { isTTY, text: () => chunks.join('') })
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')))
  return stream
}

describe('serviceLoggerOptions', () => {
  it('writes human-readable lines to a terminal, and leaves JSON (fastify\'s own logger) to anything else', async () => {
    const tty = terminal(true)
    const { loggerInstance } = await serviceLoggerOptions({ logLevel: 'info', logFormat: undefined }, tty)
    loggerInstance?.info({ component: 'admission', port: 9443 }, 'admission webhook listening')
    // Coloured for the terminal; compared without the colour codes.
    const line = stripVTControlCharacters(tty.text())
    expect(line).toMatch(/INFO/)
    expect(line).toContain('admission webhook listening')
    expect(line).toContain('component: "admission"')
    expect(line).not.toContain('{"level"')
    expect(await serviceLoggerOptions({ logLevel: 'info', logFormat: undefined }, terminal(false))).toEqual({})
  })

  it('follows VERDICT_LOG_FORMAT over the terminal test, and the level', async () => {
    expect(await serviceLoggerOptions({ logLevel: 'info', logFormat: 'json' }, terminal(true))).toEqual({})
    const pipe = terminal(false)
    const { loggerInstance } = await serviceLoggerOptions({ logLevel: 'warn', logFormat: 'pretty' }, pipe)
    loggerInstance?.info('not shown')
    loggerInstance?.warn('shown')
    // Pretty without colour codes where there is no terminal.
    expect(pipe.text()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: shown\n$/)
  })
})
