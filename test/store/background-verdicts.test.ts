import { describe, expect, it } from 'vitest'
import { clusterFigures, countNotedVerdicts, forgetVerdictsNotSeenSince, noteVerdicts } from '../../src/store/background-verdicts-repository.js'
import { testDatabases, useTestDatabase } from '../support/databases.js'

describe.each(testDatabases())('background verdicts ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 24, 10, minute))

  it('answers the verdicts that are new or changed, and holds one row per policy and object however often they are noted', async () => {
    const db = database.db
    const first = [
      { policy: 'pss', object: 'v1/Pod/shop/a', digest: 'pass', passed: true, failures: 0 },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-1', passed: false, failures: 1 },
      { policy: 'labels', object: 'v1/Pod/shop/a', digest: 'pass', passed: true, failures: 0 },
    ]
    expect(await noteVerdicts(db, first, at(0))).toEqual(first)
    expect(await noteVerdicts(db, first, at(60))).toEqual([])
    const second = [
      { policy: 'pss', object: 'v1/Pod/shop/a', digest: 'pass', passed: true, failures: 0 },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2', passed: false, failures: 1 },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2', passed: false, failures: 1 },
    ]
    expect(await noteVerdicts(db, second, at(120))).toEqual([{ policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2', passed: false, failures: 1 }])
    for (let scan = 3; scan < 10; scan++) await noteVerdicts(db, first, at(scan * 60))
    expect(await countNotedVerdicts(db)).toBe(3)
  })

  it('forgets what a complete scan did not see, so an object that comes back is audited again', async () => {
    const db = database.db
    await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail', passed: false, failures: 1 }, { policy: 'pss', object: 'v1/Pod/shop/kept', digest: 'pass', passed: true, failures: 0 }], at(0))
    await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/kept', digest: 'pass', passed: true, failures: 0 }], at(60))
    expect(await forgetVerdictsNotSeenSince(db, at(60))).toBe(1)
    expect(await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail', passed: false, failures: 1 }], at(120))).toEqual([{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail', passed: false, failures: 1 }])
  })

  it("forgets, after a scan of some policies, only those policies' unseen verdicts", async () => {
    const db = database.db
    await db.query('DELETE FROM background_verdicts')
    const verdict = (policy: string, object: string) => ({ policy, object, digest: 'd', passed: true, failures: 0 })
    await noteVerdicts(db, [verdict('pss', 'v1/Pod/a/x'), verdict('labels', 'v1/Pod/a/x'), verdict('replicas', 'apps/v1/Deployment/a/y')], at(0))
    expect(await forgetVerdictsNotSeenSince(db, at(60), ['labels', 'replicas', 'never-noted'])).toBe(2)
    expect((await db.query<{ policy_name: string }>('SELECT policy_name FROM background_verdicts')).rows).toEqual([{ policy_name: 'pss' }])
  })

  it('counts, per policy, the objects judged and failing, and names the worst first', async () => {
    const db = database.db
    await db.query('DELETE FROM background_verdicts')
    const verdict = (policy: string, object: string, failures: number) => ({ policy, object, digest: `d${failures}`, passed: failures === 0, failures })
    await noteVerdicts(db, [verdict('pss', 'v1/Pod/a/x', 1), verdict('pss', 'v1/Pod/a/y', 3), verdict('pss', 'v1/Pod/b/z', 0), verdict('pss', 'v1/Pod/a/w', 1), verdict('labels', 'v1/Pod/a/x', 0)], at(0))
    expect(await clusterFigures(db, 2)).toEqual(
      new Map([
        ['labels', { scanned: 1, failing: 0, worst: [] }],
        ['pss', { scanned: 4, failing: 3, worst: ['v1/Pod/a/y', 'v1/Pod/a/w'] }],
      ]),
    )
  })
})
