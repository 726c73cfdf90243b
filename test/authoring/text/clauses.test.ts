import { describe, expect, it } from 'vitest'
import { kindsNamedIn, normalizeText, prepareClause } from '../../../src/authoring/text/clause.js'
import { hardClauses, softPieces } from '../../../src/authoring/text/split-clauses.js'
import { correctTypos, editDistance } from '../../../src/authoring/text/typos.js'

const vocabulary = new Set(['privileged', 'containers', 'registry', 'replicas', 'labels'])
const context = { platform: 'kubernetes' as const, inheritedKinds: [], vocabulary }

describe('hardClauses', () => {
  it('splits at new lines, bullets, numbers, semicolons and sentence ends, not inside hosts or versions', () => {
    expect(hardClauses('- no privileged pods\n* images from registry.acme.io only\n1. replicas >= 2; team label. Version 1.2.3 is fine')).toEqual([
      'no privileged pods',
      'images from registry.acme.io only',
      'replicas >= 2',
      'team label',
      'Version 1.2.3 is fine',
    ])
  })
})

describe('softPieces', () => {
  it('keeps the joiners so merged pieces read as written', () => {
    expect(softPieces('images only from registry.acme.io and never :latest, also no root')).toEqual([
      { text: 'images only from registry.acme.io', joiner: '' },
      { text: 'never :latest', joiner: ' and ' },
      { text: 'no root', joiner: ', also ' },
    ])
  })
})

describe('typos', () => {
  it('fixes one edit in words of 5-7 letters and two from 8, only towards a single closest word', () => {
    expect(correctTypos('no privilaged contianers from the registy', vocabulary)).toBe('no privileged containers from the registry')
    expect(correctTypos('team lables', vocabulary)).toBe('team labels')
  })

  it('never touches values or short words', () => {
    expect(correctTypos('registy.acme.io cost-centre lables=x rep', vocabulary)).toBe('registy.acme.io cost-centre lables=x rep')
  })

  it('counts a transposition as one edit', () => {
    expect(editDistance('contianers', 'containers')).toBe(1)
  })
})

describe('prepareClause', () => {
  it('reads negation, permission and kinds', () => {
    expect(prepareClause("Don't allow privileged Deployments or cron jobs", context)).toMatchObject({
      negated: true,
      permissive: false,
      kinds: ['Deployment', 'CronJob'],
      kindsNamed: true,
    })
    expect(prepareClause('privileged pods are allowed', context)).toMatchObject({ negated: false, permissive: true })
    expect(prepareClause('only allow images from registry.acme.io', context)).toMatchObject({ permissive: false })
  })

  it('inherits kinds when the clause names none', () => {
    expect(prepareClause('team label required', { ...context, inheritedKinds: ['Deployment'] })).toMatchObject({ kinds: ['Deployment'], kindsNamed: false })
  })

  it('reads "+" and "&" as "and"', () => {
    expect(normalizeText('team + cost-center & owner labels')).toBe('team and cost-center and owner labels')
  })

  it('does not take a namespace named as a place for the Namespace kind', () => {
    expect(kindsNamedIn('pods in the prod namespace')).toEqual(['Pod'])
    expect(kindsNamedIn('namespaces must carry a team label')).toEqual(['Namespace'])
  })
})
