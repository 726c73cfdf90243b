import { describe, expect, it } from 'vitest'
import { VerdictMetrics } from '../../src/ops/verdict-metrics.js'

describe('VerdictMetrics', () => {
  it('counts Event writes by kind and the violations no Event records by reason', async () => {
    const metrics = new VerdictMetrics({ auditQueueDepth: () => 0 })
    metrics.eventReported({ type: 'written', write: 'create' })
    metrics.eventReported({ type: 'written', write: 'create' })
    metrics.eventReported({ type: 'written', write: 'patch' })
    metrics.eventReported({ type: 'dropped', reason: 'rate-limited', violations: 900 })
    metrics.eventReported({ type: 'dropped', reason: 'write-failed', violations: 3 })
    const text = await metrics.registry.metrics()
    expect(text.split('\n').filter((line) => line.startsWith('verdict_events_'))).toEqual([
      'verdict_events_written_total{write="create"} 2',
      'verdict_events_written_total{write="patch"} 1',
      'verdict_events_dropped_total{reason="rate-limited"} 900',
      'verdict_events_dropped_total{reason="write-failed"} 3',
    ])
  })
})
