import { describe, expect, it } from 'vitest'
import { countNotedVerdicts, forgetVerdictsNotSeenSince, noteVerdicts } from '../../src/store/background-verdicts-repository.js'
import { testDatabases, useTestDatabase } from '../support/databases.js'

describe.each(testDatabases())('background verdicts ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 24, 10, minute))

  it('answers the verdicts that are new or changed, and holds one row per policy and object however often they are noted', async () => {
    const db = database.db
    const first = [
      { policy: 'pss', object: 'v1/Pod/shop/a', digest: 'pass' },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-1' },
      { policy: 'labels', object: 'v1/Pod/shop/a', digest: 'pass' },
    ]
    expect(await noteVerdicts(db, first, at(0))).toEqual(first)
    expect(await noteVerdicts(db, first, at(60))).toEqual([])
    const second = [
      { policy: 'pss', object: 'v1/Pod/shop/a', digest: 'pass' },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2' },
      { policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2' },
    ]
    expect(await noteVerdicts(db, second, at(120))).toEqual([{ policy: 'pss', object: 'v1/Pod/shop/b', digest: 'fail-2' }])
    for (let scan = 3; scan < 10; scan++) await noteVerdicts(db, first, at(scan * 60))
    expect(await countNotedVerdicts(db)).toBe(3)
  })

  it('forgets what a complete scan did not see, so an object that comes back is audited again', async () => {
    const db = database.db
    await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail' }, { policy: 'pss', object: 'v1/Pod/shop/kept', digest: 'pass' }], at(0))
    await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/kept', digest: 'pass' }], at(60))
    expect(await forgetVerdictsNotSeenSince(db, at(60))).toBe(1)
    expect(await noteVerdicts(db, [{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail' }], at(120))).toEqual([{ policy: 'pss', object: 'v1/Pod/shop/gone', digest: 'fail' }])
  })
})
