import { describe, expect, it } from 'vitest'
import type { PolicyException } from '../../src/engine/index.js'
import { broadExceptions } from '../../src/recommendations/broad-exception.js'
import { expiringExceptions } from '../../src/recommendations/expiring-exception.js'

const NOW = new Date('2026-06-01T12:00:00.000Z')

function exception(name: string, overrides: Partial<PolicyException> = {}): PolicyException {
  return { name, policies: ['baseline'], match: { kinds: ['Pod'], namespaces: ['logging'] }, reason: 'r', ...overrides }
}

describe('expiringExceptions', () => {
  it('names those ending within seven days, with owner and ticket, and leaves the rest alone', () => {
    const found = expiringExceptions(
      [
        exception('tomorrow', { expiresAt: '2026-06-02T11:00:00.000Z', owner: 'platform@example.com', ticket: 'OPS-1' }),
        exception('in-a-week', { expiresAt: '2026-06-08T12:00:00.000Z' }),
        exception('later', { expiresAt: '2026-06-08T12:00:00.001Z' }),
        exception('ended', { expiresAt: '2026-06-01T12:00:00.000Z' }),
        exception('forever'),
      ],
      NOW,
    )
    expect(found).toEqual([
      {
        id: 'expiring-exception:tomorrow',
        type: 'expiring-exception',
        target: { kind: 'exception', name: 'tomorrow' },
        message: 'Exception "tomorrow" stops applying at 2026-06-02T11:00:00.000Z (within a day): fix the workloads it lets through, or renew it with a new expiresAt.',
        evidence: { expiresAt: '2026-06-02T11:00:00.000Z', daysLeft: 1, owner: 'platform@example.com', ticket: 'OPS-1' },
      },
      expect.objectContaining({ id: 'expiring-exception:in-a-week', evidence: { expiresAt: '2026-06-08T12:00:00.000Z', daysLeft: 7, owner: null, ticket: null } }),
    ])
  })
})

describe('broadExceptions', () => {
  it('names an exception that narrows by no namespace, name or label', () => {
    const found = broadExceptions([
      exception('everywhere', { match: { kinds: ['DaemonSet'] }, rules: [{ ruleset: 'pss', rule: 'privileged' }] }),
      exception('by-label', { match: { kinds: ['Pod'], labelSelector: { matchLabels: { app: 'x' } } } }),
      exception('by-name', { match: { names: ['log-*'] } }),
      exception('any-narrow', { match: { any: [{ namespaces: ['a'] }, { names: ['b'] }] } }),
      exception('any-broad', { match: { any: [{ namespaces: ['a'] }, { kinds: ['Pod'] }] } }),
      exception('condition-only', { match: { kinds: ['Pod'] }, conditions: [{ expression: 'true' }] }),
    ])
    expect(found.map((item) => item.id)).toEqual(['broad-exception:everywhere', 'broad-exception:any-broad', 'broad-exception:condition-only'])
    expect(found[0]).toEqual({
      id: 'broad-exception:everywhere',
      type: 'broad-exception',
      target: { kind: 'exception', name: 'everywhere' },
      message: 'Exception "everywhere" names no namespace, object name or label: it lets every DaemonSet through. Narrow its match to the workloads it is for.',
      evidence: { kinds: ['DaemonSet'], policies: ['baseline'], rules: ['pss/privileged'] },
    })
  })
})
