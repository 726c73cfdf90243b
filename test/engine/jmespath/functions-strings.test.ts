import { describe, expect, it } from 'vitest'
import { jp, jpError } from './helpers.js'

// Expectations from kyverno.io's JMESPath page (custom filters) and the behaviour of the Go
// functions Kyverno wraps (strings.Replace, strings.Trim, ...).

describe('compare and equal_fold', () => {
  it('compare orders strings like Go: -1, 0, 1, by code point', () => {
    expect(jp("compare('a', 'b')")).toBe(-1)
    expect(jp("compare('b', 'a')")).toBe(1)
    expect(jp("compare('a', 'a')")).toBe(0)
    expect(jp("compare('Z', 'a')")).toBe(-1)
    expect(jp("compare('\uffff', '\u{1f600}')")).toBe(-1)
  })

  it('equal_fold ignores case only', () => {
    expect(jp("equal_fold('pizza', 'Pizza')")).toBe(true)
    expect(jp("equal_fold('pizza', 'pIzZa')")).toBe(true)
    expect(jp("equal_fold('pizza', 'APPLE')")).toBe(false)
    expect(jp("equal_fold('Straße', 'STRASSE')")).toBe(false)
  })
})

describe('replace and replace_all', () => {
  it('replace changes the first n occurrences, all with -1', () => {
    expect(jp("replace('Lorem ipsum dolor sit amet foo ipsum bar ipsum', 'ipsum', 'muspi', `2`)")).toBe(
      'Lorem muspi dolor sit amet foo muspi bar ipsum',
    )
    expect(jp("replace('a-b-c', '-', '+', `-1`)")).toBe('a+b+c')
    expect(jp("replace('a-b-c', '-', '+', `0`)")).toBe('a-b-c')
    expect(jp("replace('abc', '', '_', `2`)")).toBe('_a_bc')
  })

  it('replace_all replaces every occurrence, an empty pattern between every rune', () => {
    expect(jp("replace_all('Lorem ipsum dolor sit amet', 'ipsum', 'muspi')")).toBe('Lorem muspi dolor sit amet')
    expect(jp("replace_all('abc', '', '-')")).toBe('-a-b-c-')
    expect(jp("replace_all('a😀b', '', '-')")).toBe('-a-😀-b-')
  })
})

describe('case, trimming and splitting', () => {
  it('to_upper and to_lower map rune by rune', () => {
    expect(jp("to_upper('abc-Def')")).toBe('ABC-DEF')
    expect(jp("to_lower('ABC-Def')")).toBe('abc-def')
    // Go keeps ß (no single-rune upper case) where JavaScript would write SS.
    expect(jp("to_upper('straße')")).toBe('STRAßE')
  })

  it('trim removes the cutset from both ends, in any order', () => {
    expect(jp("trim('¡¡¡Hello, Gophers!!!', '!¡')")).toBe('Hello, Gophers')
    expect(jp("trim('foocorpcom', 'mo')")).toBe('foocorpc')
    expect(jp("trim('foocorpcom', 'o')")).toBe('foocorpcom')
    expect(jp("trim('foocorpcom', 'mcof')")).toBe('rp')
    expect(jp("trim('  x  ', '')")).toBe('  x  ')
  })

  it('trim_prefix removes the prefix when present', () => {
    expect(jp("trim_prefix('docker://kubevirt/fedora-cloud-registry-disk-demo', 'docker://')")).toBe(
      'kubevirt/fedora-cloud-registry-disk-demo',
    )
    expect(jp("trim_prefix('nginx', 'docker://')")).toBe('nginx')
  })

  it('split cuts at every separator; an empty separator splits into runes', () => {
    expect(jp("split('cat,dog,horse', ',')")).toEqual(['cat', 'dog', 'horse'])
    expect(jp("split('a', ',')")).toEqual(['a'])
    expect(jp("split('', ',')")).toEqual([''])
    expect(jp("split('a😀', '')")).toEqual(['a', '😀'])
    expect(jp("split('/foo/bar', '/') | [1]")).toBe('foo')
  })

  it('truncate keeps the first n runes', () => {
    expect(jp("truncate('foobar', `3`)")).toBe('foo')
    expect(jp("truncate('foobar', `10`)")).toBe('foobar')
    expect(jp("truncate('foobar', `-1`)")).toBe('')
    expect(jp("truncate('😀😀😀', `2`)")).toBe('😀😀')
    expect(jp('truncate(request.object.metadata.name, `9`)', { request: { object: { metadata: { name: 'a-very-long-name' } } } })).toBe(
      'a-very-lo',
    )
  })

  it('to_boolean reads true and false in any case', () => {
    expect(jp("to_boolean('true')")).toBe(true)
    expect(jp("to_boolean('FalsE')")).toBe(false)
    expect(jpError("to_boolean('yes')").message).toBe("JMESPath function 'to_boolean': lowercase argument must be 'true' or 'false' (provided: 'yes')")
  })
})

describe('base64 and paths', () => {
  it('base64_encode and base64_decode round-trip UTF-8 text', () => {
    expect(jp("base64_encode('hello world')")).toBe('aGVsbG8gd29ybGQ=')
    expect(jp("base64_decode('aGVsbG8gd29ybGQ=')")).toBe('hello world')
    expect(jp("base64_decode(base64_encode('héllo 😀'))")).toBe('héllo 😀')
    expect(jp("base64_decode('bGluZTEKbGluZTI=')")).toBe('line1\nline2')
  })

  it('base64_decode is Go StdEncoding: padding required, other alphabets refused', () => {
    expect(jpError("base64_decode('aGVsbG8')").message).toContain('illegal base64 data')
    expect(jpError("base64_decode('aGV$bG8=')").message).toContain('illegal base64 data at input byte 3')
    expect(jpError("base64_decode('_-8=')").message).toContain('illegal base64 data')
  })

  it('path_canonicalize cleans a path like filepath.Join', () => {
    expect(jp("path_canonicalize('/var//lib///kubelet')")).toBe('/var/lib/kubelet')
    expect(jp("path_canonicalize('/var/run/../run/./containerd/containerd.sock')")).toBe('/var/run/containerd/containerd.sock')
    expect(jp("path_canonicalize('a/../../b')")).toBe('../b')
    expect(jp("path_canonicalize('/..')")).toBe('/')
    expect(jp("path_canonicalize('')")).toBe('')
  })
})

describe('hashes', () => {
  it('sha256, sha1 and md5 give hex digests of the UTF-8 bytes', () => {
    expect(jp("sha256('alertmanager-kube-prometheus-stack-alertmanager')")).toBe(
      '75c07bb807f2d80a85d34880b8af0c5f29f7c27577076ed5d0e4b427dee7dbcc',
    )
    expect(jp("sha1('abc')")).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
    expect(jp("md5('abc')")).toBe('900150983cd24fb0d6963f7d28e17f72')
  })
})
