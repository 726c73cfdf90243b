import { describe, expect, it } from 'vitest'
import { planAuditCount } from '../../src/store/audit-count-plan.js'

const t = (iso: string) => new Date(iso)

describe('planAuditCount', () => {
  it('takes whole hours, then whole minutes at the edges, then the rows of the partial minutes', () => {
    expect(planAuditCount(t('2026-11-21T06:58:30.500Z'), t('2026-11-21T09:02:10.000Z'))).toEqual({
      buckets: [
        { spanSeconds: 3600, from: t('2026-11-21T07:00:00.000Z'), to: t('2026-11-21T09:00:00.000Z') },
        { spanSeconds: 60, from: t('2026-11-21T06:59:00.000Z'), to: t('2026-11-21T07:00:00.000Z') },
        { spanSeconds: 60, from: t('2026-11-21T09:00:00.000Z'), to: t('2026-11-21T09:02:00.000Z') },
      ],
      raw: [
        { from: t('2026-11-21T06:58:30.500Z'), to: t('2026-11-21T06:59:00.000Z'), toInclusive: false },
        { from: t('2026-11-21T09:02:00.000Z'), to: t('2026-11-21T09:02:10.000Z'), toInclusive: true },
      ],
    })
  })

  it('from the epoch, needs no leading edge', () => {
    expect(planAuditCount(t('1970-01-01T00:00:00.000Z'), t('2026-11-21T07:00:00.000Z'))).toEqual({
      buckets: [{ spanSeconds: 3600, from: t('1970-01-01T00:00:00.000Z'), to: t('2026-11-21T07:00:00.000Z') }],
      // The end is inclusive: rows written at exactly 07:00:00.000 still count.
      raw: [{ from: t('2026-11-21T07:00:00.000Z'), to: t('2026-11-21T07:00:00.000Z'), toInclusive: true }],
    })
  })

  it('counts a range inside one minute row by row', () => {
    expect(planAuditCount(t('2026-11-21T07:00:10.000Z'), t('2026-11-21T07:00:50.000Z'))).toEqual({
      buckets: [],
      raw: [{ from: t('2026-11-21T07:00:10.000Z'), to: t('2026-11-21T07:00:50.000Z'), toInclusive: true }],
    })
  })

  it('plans nothing when start is after end, and a single instant as one raw point', () => {
    expect(planAuditCount(t('2026-11-21T08:00:00.000Z'), t('2026-11-21T07:00:00.000Z'))).toEqual({ buckets: [], raw: [] })
    expect(planAuditCount(t('2026-11-21T08:00:00.000Z'), t('2026-11-21T08:00:00.000Z'))).toEqual({
      buckets: [],
      raw: [{ from: t('2026-11-21T08:00:00.000Z'), to: t('2026-11-21T08:00:00.000Z'), toInclusive: true }],
    })
  })

  it('covers the range exactly: every millisecond falls in one piece', () => {
    const start = t('2026-11-21T05:59:59.990Z').getTime()
    const end = t('2026-11-21T08:01:00.010Z').getTime()
    const plan = planAuditCount(new Date(start), new Date(end))
    const covering = (ms: number) =>
      plan.buckets.filter((b) => ms >= b.from.getTime() && ms < b.to.getTime()).length +
      plan.raw.filter((r) => ms >= r.from.getTime() && (r.toInclusive ? ms <= r.to.getTime() : ms < r.to.getTime())).length
    for (let ms = start - 50; ms <= end + 50; ms += ms > start + 100 && ms < end - 100 ? 997 : 1) {
      expect(covering(ms), new Date(ms).toISOString()).toBe(ms >= start && ms <= end ? 1 : 0)
    }
  })
})
