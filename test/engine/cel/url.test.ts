import { describe, expect, it } from 'vitest'
import { evalCel, evalError } from './helpers.js'

describe('url()', () => {
  it('accepts absolute URIs and absolute paths only', () => {
    expect(evalCel("isURL('https://user:pass@example.com:80/path?query=val#fragment')")).toBe(true)
    expect(evalCel("isURL('/absolute-path')")).toBe(true)
    expect(evalCel("isURL('https://a:b:c/')")).toBe(false)
    expect(evalCel("isURL('../relative-path')")).toBe(false)
    expect(evalCel("isURL('')")).toBe(false)
    expect(evalCel("isURL('mailto:someone@example.com')")).toBe(true)
    expect(evalCel("isURL('http://[::1')")).toBe(false)
    expect(evalCel("isURL('http://example.com/%zz')")).toBe(false)
    expect(evalCel("isURL('http://exa mple.com/')")).toBe(false)
  })

  it('raises an error for an invalid URL', () => {
    expect(evalError("url('../relative-path')").message).toBe(
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request (at 1:1)',
    )
    expect(evalError("url('https://a:b:c/')").message).toBe(
      'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host (at 1:1)',
    )
  })

  it('getScheme', () => {
    expect(evalCel("url('/path').getScheme()")).toBe('')
    expect(evalCel("url('https://example.com/').getScheme()")).toBe('https')
    expect(evalCel("url('HTTPS://example.com/').getScheme()")).toBe('https')
  })

  it('getHost and getHostname', () => {
    expect(evalCel("url('https://example.com:80/').getHost()")).toBe('example.com:80')
    expect(evalCel("url('https://example.com/').getHost()")).toBe('example.com')
    expect(evalCel("url('https://[::1]:80/').getHost()")).toBe('[::1]:80')
    expect(evalCel("url('https://[::1]/').getHost()")).toBe('[::1]')
    expect(evalCel("url('/path').getHost()")).toBe('')
    expect(evalCel("url('https://example.com:80/').getHostname()")).toBe('example.com')
    expect(evalCel("url('https://127.0.0.1:80/').getHostname()")).toBe('127.0.0.1')
    expect(evalCel("url('https://[::1]:80/').getHostname()")).toBe('::1')
    expect(evalCel("url('/path').getHostname()")).toBe('')
    expect(evalCel("url('https://user:pass@example.com/').getHost()")).toBe('example.com')
  })

  it('getPort', () => {
    expect(evalCel("url('https://example.com:80/').getPort()")).toBe('80')
    expect(evalCel("url('https://example.com/').getPort()")).toBe('')
    expect(evalCel("url('/path').getPort()")).toBe('')
  })

  it('getEscapedPath', () => {
    expect(evalCel("url('https://example.com/path').getEscapedPath()")).toBe('/path')
    expect(evalCel("url('https://example.com/path with spaces/').getEscapedPath()")).toBe('/path%20with%20spaces/')
    expect(evalCel("url('https://example.com').getEscapedPath()")).toBe('')
    expect(evalCel("url('https://example.com/a%2Fb').getEscapedPath()")).toBe('/a%2Fb')
    expect(evalCel("url('https://example.com/caf%C3%A9').getEscapedPath()")).toBe('/caf%C3%A9')
  })

  it('getQuery', () => {
    expect(evalCel("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()")).toEqual(
      new Map([
        ['k1', ['a']],
        ['k2', ['b', 'c']],
      ]),
    )
    expect(evalCel("url('https://example.com/path?key with spaces=value with spaces').getQuery()")).toEqual(
      new Map([['key with spaces', ['value with spaces']]]),
    )
    expect(evalCel("url('https://example.com/path?a=1+2&b=%21').getQuery()")).toEqual(
      new Map([
        ['a', ['1 2']],
        ['b', ['!']],
      ]),
    )
    expect(evalCel("url('https://example.com/path?').getQuery()")).toEqual(new Map())
    expect(evalCel("url('https://example.com/path').getQuery()")).toEqual(new Map())
    expect(evalCel("url('https://example.com/path?k=v#frag').getQuery()['k']")).toEqual(['v'])
  })

  it('compares URLs', () => {
    expect(evalCel("url('https://example.com/') == url('https://example.com/')")).toBe(true)
    expect(evalCel("url('https://example.com/') == url('https://example.org/')")).toBe(false)
  })
})
