import { describe, expect, it } from 'vitest'
import { unusedExceptions, type ExceptionWithStamp } from '../../src/recommendations/unused-exception.js'

const NOW = new Date('2026-06-01T12:00:00.000Z')
const LONG_AGO = '2026-03-01T00:00:00.000Z'

function exception(name: string, overrides: Partial<ExceptionWithStamp> = {}): ExceptionWithStamp {
  return { name, policies: ['baseline'], match: { kinds: ['Pod'], namespaces: ['logging'] }, reason: 'r', createdAt: LONG_AGO, updatedAt: LONG_AGO, ...overrides }
}

describe('unusedExceptions', () => {
  it('names an active exception that let nothing through in the last N days, nor was created or changed in them', () => {
    const found = unusedExceptions(
      [
        exception('never-applied', { owner: 'platform@example.com', ticket: 'OPS-3' }),
        exception('applied-long-ago'),
        exception('applied-lately'),
        exception('just-created', { createdAt: '2026-05-31T00:00:00.000Z', updatedAt: '2026-05-31T00:00:00.000Z' }),
        exception('just-changed', { updatedAt: '2026-05-20T00:00:00.000Z' }),
        exception('expired', { expiresAt: '2026-05-01T00:00:00.000Z' }),
        exception('on-the-edge', { createdAt: '2026-05-02T12:00:00.000Z', updatedAt: '2026-05-02T12:00:00.000Z' }),
      ],
      new Map([
        ['applied-long-ago', '2026-04-01T08:00:00.000Z'],
        ['applied-lately', '2026-05-30T08:00:00.000Z'],
      ]),
      NOW,
      30,
    )
    expect(found).toEqual([
      {
        id: 'unused-exception:never-applied',
        type: 'unused-exception',
        target: { kind: 'exception', name: 'never-applied' },
        message:
          'Exception "never-applied" let nothing through in the last 30 days (never since it was created at 2026-03-01T00:00:00.000Z): delete it if the workload it was for is gone, or fix its match.',
        evidence: { lastAppliedAt: null, changedAt: LONG_AGO, days: 30, owner: 'platform@example.com', ticket: 'OPS-3' },
      },
      {
        id: 'unused-exception:applied-long-ago',
        type: 'unused-exception',
        target: { kind: 'exception', name: 'applied-long-ago' },
        message: 'Exception "applied-long-ago" let nothing through in the last 30 days (last at 2026-04-01T08:00:00.000Z): delete it if the workload it was for is gone, or fix its match.',
        evidence: { lastAppliedAt: '2026-04-01T08:00:00.000Z', changedAt: LONG_AGO, days: 30, owner: null, ticket: null },
      },
      expect.objectContaining({ id: 'unused-exception:on-the-edge' }),
    ])
  })

  it('counts the days from the setting: applied exactly N days ago is N days without', () => {
    const applied = new Map([['x', '2026-05-25T12:00:00.000Z']])
    expect(unusedExceptions([exception('x')], applied, NOW, 8)).toEqual([])
    expect(unusedExceptions([exception('x')], applied, NOW, 7)).toEqual([expect.objectContaining({ id: 'unused-exception:x', evidence: expect.objectContaining({ days: 7 }) })])
  })
})
