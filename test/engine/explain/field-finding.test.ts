import { describe, expect, it } from 'vitest'
import { formatPath } from '../../../src/engine/explain/field-finding.js'

describe('formatPath', () => {
  it('dots plain keys, indexes lists and quotes keys that hold dots or slashes', () => {
    expect(formatPath(['spec', 'containers', 0, 'securityContext', 'privileged'])).toBe('spec.containers[0].securityContext.privileged')
    expect(formatPath(['metadata', 'labels', 'app.kubernetes.io/name'])).toBe('metadata.labels["app.kubernetes.io/name"]')
    expect(formatPath(['metadata', 'labels', 'cost-center'])).toBe('metadata.labels.cost-center')
    expect(formatPath(['items', 2])).toBe('items[2]')
    expect(formatPath(['a b'])).toBe('["a b"]')
    expect(formatPath([])).toBe('')
  })
})
