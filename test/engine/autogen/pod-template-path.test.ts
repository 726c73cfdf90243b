import { describe, expect, it } from 'vitest'
import { controllerPathOf } from '../../../src/engine/autogen/pod-template-path.js'

describe('controllerPathOf', () => {
  it('puts pod fields under the pod template of the controller', () => {
    expect(controllerPathOf('Deployment', ['spec', 'containers', 0, 'image'])).toEqual(['spec', 'template', 'spec', 'containers', 0, 'image'])
    expect(controllerPathOf('CronJob', ['spec', 'hostNetwork'])).toEqual(['spec', 'jobTemplate', 'spec', 'template', 'spec', 'hostNetwork'])
    expect(controllerPathOf('StatefulSet', ['metadata', 'labels', 'app'])).toEqual(['spec', 'template', 'metadata', 'labels', 'app'])
  })

  it('keeps the name and namespace, which the pod view takes from the controller, where they are', () => {
    expect(controllerPathOf('Deployment', ['metadata', 'namespace'])).toEqual(['metadata', 'namespace'])
    expect(controllerPathOf('Job', ['metadata', 'name'])).toEqual(['metadata', 'name'])
  })
})
