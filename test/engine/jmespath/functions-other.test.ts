import { describe, expect, it } from 'vitest'
import { KYVERNO_FUNCTIONS } from '../../../src/engine/jmespath/index.js'
import { jp, jpError } from './helpers.js'

describe('semver_compare', () => {
  it('checks a version against a blang/semver range', () => {
    expect(jp("semver_compare('1.2.3','1.2.4')")).toBe(false)
    expect(jp("semver_compare('1.2.3','1.2.3')")).toBe(true)
    expect(jp("semver_compare('4.1.3','>=4.1.x')")).toBe(true)
    expect(jp("semver_compare('4.1.3','!4.x.x')")).toBe(false)
    expect(jp("semver_compare('1.8.6','>1.0.0 <2.0.0')")).toBe(true)
    expect(jp("semver_compare('2.1.5','<2.0.0 || >=3.0.0')")).toBe(false)
    expect(jp("semver_compare('3.0.1','<2.0.0 || >=3.0.0')")).toBe(true)
    expect(jp("semver_compare('1.5.0','1.x')")).toBe(true)
    expect(jp("semver_compare('2.0.0','1.x')")).toBe(false)
    expect(jp("semver_compare('1.2.0-beta.1','<1.2.0')")).toBe(true)
  })

  it('compares a version that does not parse as 0.0.0, and rejects a bad range', () => {
    expect(jp("semver_compare('v1.2.3', '<0.0.1')")).toBe(true)
    expect(jp("semver_compare('latest', '0.0.0')")).toBe(true)
    expect(jpError("semver_compare('1.0.0', '>=abc')").message).toContain('Could not get version from string')
    expect(jpError("semver_compare('1.0.0', '~1.0.0')").message).toContain('Could not parse comparator')
    expect(jpError("semver_compare('1.0.0', '|| 1.0.0')").message).toContain("First element in range is '||'")
  })
})

describe('image_normalize', () => {
  it('fills in the default registry and tag', () => {
    expect(jp("image_normalize('nginx')")).toBe('docker.io/nginx:latest')
    expect(jp("image_normalize('bitnami/nginx:1.25')")).toBe('docker.io/bitnami/nginx:1.25')
    expect(jp("image_normalize('localhost:5000/app')")).toBe('localhost:5000/app:latest')
    expect(jp(`image_normalize('ghcr.io/org/app@sha256:${'a'.repeat(64)}')`)).toBe(`ghcr.io/org/app@sha256:${'a'.repeat(64)}`)
  })

  it('rejects references that are not valid', () => {
    expect(jpError("image_normalize('nginx:la:test')").message).toContain('invalid reference format')
    expect(jpError("image_normalize('docker.io/Nginx')").message).toContain('repository name must be lowercase')
    expect(jpError("image_normalize('Nginx')").message).toContain('repository name must be lowercase')
    expect(jpError("image_normalize('nginx@sha256:abc')").message).toContain('invalid reference format')
    expect(jpError(`image_normalize('nginx@sha256:${'a'.repeat(40)}')`).message).toContain('invalid checksum digest length')
    expect(jpError(`image_normalize('nginx@md5:${'a'.repeat(32)}')`).message).toContain('unsupported digest algorithm')
  })
})

describe('is_external_url', () => {
  it('answers from an IP address host', () => {
    expect(jp("is_external_url('http://10.0.0.1/x')")).toBe(false)
    expect(jp("is_external_url('https://127.0.0.1:8443')")).toBe(false)
    expect(jp("is_external_url('http://172.20.1.1')")).toBe(false)
    expect(jp("is_external_url('http://172.32.1.1')")).toBe(true)
    expect(jp("is_external_url('http://192.168.1.1')")).toBe(false)
    expect(jp("is_external_url('http://8.8.8.8')")).toBe(true)
    expect(jp("is_external_url('http://[::1]:80/')")).toBe(false)
    expect(jp("is_external_url('http://[fd00::1]/')")).toBe(false)
    expect(jp("is_external_url('http://[2001:db8::1]/')")).toBe(true)
    expect(jp("is_external_url('http://[::ffff:10.1.2.3]/')")).toBe(false)
  })

  it('refuses to resolve host names offline', () => {
    expect(jpError("is_external_url('https://example.com')").message).toBe(
      'JMESPath function \'is_external_url\': not supported by Verdict: the host "example.com" is not an IP address, and resolving names (DNS) is not done during evaluation',
    )
  })
})

describe('functions Verdict refuses', () => {
  it('x509_decode and random fail with an error naming the function', () => {
    expect(jpError("x509_decode('-----BEGIN CERTIFICATE-----')").message).toMatch(/^JMESPath function 'x509_decode': not supported by Verdict/)
    expect(jpError("random('[a-z]{5}')").message).toMatch(/^JMESPath function 'random': not supported by Verdict/)
  })
})

describe('the function table', () => {
  it('registers every custom function of Kyverno', () => {
    const names = KYVERNO_FUNCTIONS.map((fn) => fn.name).sort()
    expect(names).toEqual(
      [
        'add', 'base64_decode', 'base64_encode', 'compare', 'divide', 'equal_fold', 'image_normalize', 'is_external_url',
        'items', 'label_match', 'lookup', 'md5', 'modulo', 'multiply', 'object_from_lists', 'parse_json', 'parse_yaml',
        'path_canonicalize', 'pattern_match', 'random', 'regex_match', 'regex_replace_all', 'regex_replace_all_literal',
        'replace', 'replace_all', 'round', 'semver_compare', 'sha1', 'sha256', 'split', 'subtract', 'sum', 'time_add',
        'time_after', 'time_before', 'time_between', 'time_diff', 'time_now', 'time_now_utc', 'time_parse', 'time_since',
        'time_to_cron', 'time_truncate', 'time_utc', 'to_boolean', 'to_lower', 'to_upper', 'trim', 'trim_prefix', 'truncate',
        'x509_decode',
      ].sort(),
    )
  })
})
