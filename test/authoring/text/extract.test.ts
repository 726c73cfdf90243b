import { describe, expect, it } from 'vitest'
import { fieldPaths, hostNames, isLabelKey, listAfter, listBefore, numbers, portRanges, quantities, quoted } from '../../../src/authoring/text/extract.js'

describe('hostNames', () => {
  it('reads registries with ports and paths, exactly, without a sentence-ending dot', () => {
    expect(hostNames('images only from registry.acme.io, ghcr.io/acme and localhost:5000.')).toEqual(['registry.acme.io', 'ghcr.io/acme', 'localhost:5000'])
    expect(hostNames('pull from registry.acme.io.evil.com or 10.0.0.5:5000/team')).toEqual(['registry.acme.io.evil.com', '10.0.0.5:5000/team'])
  })

  it('does not take file names or plain words for hosts', () => {
    expect(hostNames('apply ruleset.yaml and values.json to the cluster')).toEqual([])
  })
})

describe('quantities', () => {
  it('canonicalises CPU and memory units', () => {
    expect(quantities('cpu limit 500m, 0.5 cores, 2 cpus, 250 millicores').map((mention) => [mention.quantity, mention.unit])).toEqual([
      ['500m', 'cpu'],
      ['0.5', 'cpu'],
      ['2', 'cpu'],
      ['250m', 'cpu'],
    ])
    expect(quantities('memory at most 512Mi or 1 GiB or 2GB or 1G').map((mention) => [mention.quantity, mention.unit])).toEqual([
      ['512Mi', 'memory'],
      ['1Gi', 'memory'],
      ['2G', 'memory'],
      ['1G', 'memory'],
    ])
  })

  it('keeps bare numbers unit-less', () => {
    expect(quantities('at least 3')).toEqual([{ quantity: '3', unit: undefined, index: 9 }])
  })
})

describe('numbers, ports, quotes', () => {
  it('reads numbers but not parts of versions or hosts', () => {
    expect(numbers('between 1 and 10, not 1.2.3 or v2')).toEqual([1, 10])
  })

  it('reads ports and ranges within 1-65535', () => {
    expect(portRanges('ports 22, 3389 and 30000-32767 but not 70000')).toEqual([
      [22, 22],
      [3389, 3389],
      [30000, 32767],
    ])
  })

  it('reads quoted values', () => {
    expect(quoted(`level must be "info" or 'warn' or \`debug\``)).toEqual(['info', 'warn', 'debug'])
  })
})

describe('lists', () => {
  it('reads list items after and before a keyword', () => {
    expect(listAfter('require labels team, cost-center and app.kubernetes.io/name on deployments', /labels?\s+/i, isLabelKey)).toEqual([
      'team',
      'cost-center',
      'app.kubernetes.io/name',
      'on',
      'deployments',
    ])
    expect(listBefore('Deployments need team + cost-center labels', /\s+labels?\b/i, isLabelKey)).toEqual(['Deployments', 'need', 'team', 'cost-center'])
  })

  it('recognises label keys', () => {
    expect(['team', 'cost-center', 'app.kubernetes.io/name', 'a_b.c'].every(isLabelKey)).toBe(true)
    expect(['-team', 'team-', 'a b', 'x/y/z'].some(isLabelKey)).toBe(false)
  })
})

describe('fieldPaths', () => {
  it('reads dotted paths', () => {
    expect(fieldPaths('server.tls.enabled must be true and spec.replicas at least 2')).toEqual(['server.tls.enabled', 'spec.replicas'])
  })
})
