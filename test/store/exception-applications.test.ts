import { beforeEach, describe, expect, it } from 'vitest'
import { ExceptionApplications } from '../../src/services/exception-applications.js'
import type { Db, Queryable } from '../../src/store/db.js'
import { lastExceptionApplications, noteExceptionsApplied } from '../../src/store/exception-applications.js'
import { getException, insertException, replaceException } from '../../src/store/exceptions-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const T0 = new Date('2026-06-01T12:00:00.000Z')
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs)

async function store(db: Queryable, name: string): Promise<void> {
  await insertException(db, { name, labels: {}, policies: ['baseline'], match: { kinds: ['Pod'] }, reason: 'r', source: 'api', createdBy: 'a@example.com', updatedBy: 'a@example.com' })
}

/** The UPDATEs that reach the database: the recorder's writes. */
function counting(db: Db): { queryable: Queryable; updates: () => number } {
  let updates = 0
  return {
    queryable: {
      query: ((text: string, params?: unknown[]) => {
        if (text.trimStart().startsWith('UPDATE policy_exceptions')) updates += 1
        return db.query(text, params)
      }) as Queryable['query'],
    },
    updates: () => updates,
  }
}

describe.each(testDatabases())('when exceptions last applied ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))

  it('notes the time forward only, for the names stored, without changing the exception', async () => {
    const { db } = database
    await store(db, 'a')
    await store(db, 'b')
    await noteExceptionsApplied(db, ['a', 'gone'], at(60_000))
    await noteExceptionsApplied(db, ['a', 'b'], at(0))
    expect(await lastExceptionApplications(db)).toEqual(new Map([['a', at(60_000).toISOString()], ['b', T0.toISOString()]]))
    expect(await getException(db, 'a')).toMatchObject({ version: 1 })
    const replaced = await getException(db, 'a')
    if (replaced) await replaceException(db, { ...replaced, reason: 'changed' })
    expect((await lastExceptionApplications(db)).get('a')).toBe(at(60_000).toISOString())
  })

  it('writes at most once a minute per exception, whatever the number of applications, at the clock it is given', async () => {
    const { db } = database
    await store(db, 'a')
    await store(db, 'b')
    const clock = { now: T0 }
    const { queryable, updates } = counting(db)
    const applications = new ExceptionApplications(queryable, { now: () => clock.now })
    for (let i = 0; i < 100; i++) applications.applied('a')
    applications.applied('b')
    await applications.settled()
    expect(updates()).toBe(1)
    clock.now = at(59_999)
    applications.applied('a')
    applications.applied('b')
    await applications.settled()
    expect(updates()).toBe(1)
    clock.now = at(60_000)
    applications.applied('a')
    await applications.settled()
    expect(updates()).toBe(2)
    expect(await lastExceptionApplications(db)).toEqual(new Map([['a', at(60_000).toISOString()], ['b', T0.toISOString()]]))
  })

  it('writes again at the next application when a write failed', async () => {
    const { db } = database
    await store(db, 'a')
    let failing = true
    const errors: unknown[] = []
    const flaky: Queryable = {
      query: ((text: string, params?: unknown[]) => (failing ? Promise.reject(new Error('store down')) : db.query(text, params))) as Queryable['query'],
    }
    const applications = new ExceptionApplications(flaky, { now: () => T0, onError: (error) => errors.push(error) })
    applications.applied('a')
    await applications.settled()
    expect(errors).toHaveLength(1)
    failing = false
    applications.applied('a')
    await applications.settled()
    expect((await lastExceptionApplications(db)).get('a')).toBe(T0.toISOString())
  })
})
