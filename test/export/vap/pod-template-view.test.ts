import { describe, expect, it } from 'vitest'
import { podFromController } from '../../../src/engine/autogen/pod-from-controller.js'
import { compileCel, toCelValue } from '../../../src/engine/cel/index.js'
import { NotRewritable, rewriteForPodTemplate } from '../../../src/export/vap/pod-template-view.js'

describe('rewriteForPodTemplate', () => {
  it.each([
    ['object.spec.containers.size() > 0', 'controllers', 'object.spec.template.spec.containers.size() > 0'],
    ['object.spec.containers.size() > 0', 'cronjobs', 'object.spec.jobTemplate.spec.template.spec.containers.size() > 0'],
    ['oldObject == null || oldObject.spec.hostPID == object.spec.hostPID', 'controllers', 'oldObject == null || oldObject.spec.template.spec.hostPID == object.spec.template.spec.hostPID'],
    ["object.metadata.labels['app'] == 'a'", 'controllers', "object.spec.template.metadata.labels['app'] == 'a'"],
    ['object.metadata.?labels.orValue({}).size()', 'controllers', 'object.spec.template.?metadata.?labels.orValue({}).size()'],
    ['has(object.metadata.annotations)', 'controllers', '(has(object.spec.template.metadata) && has(object.spec.template.metadata.annotations))'],
    ["object.metadata.namespace != 'default'", 'controllers', "(has(object.metadata.namespace) ? object.metadata.namespace : object.spec.template.metadata.namespace) != 'default'"],
    ['has(object.metadata.name)', 'controllers', '(has(object.metadata.name) || has(object.spec.template.metadata) && has(object.spec.template.metadata.name))'],
    ["object.kind == 'Pod' && has(object.apiVersion) && has(object.metadata)", 'controllers', "'Pod' == 'Pod' && true && true"],
    ['[1, 2].all(object, object > 0) && object.spec.x', 'controllers', '[1, 2].all(object, object > 0) && object.spec.template.spec.x'],
  ] as const)('%s (%s)', (source, form, rewritten) => {
    expect(rewriteForPodTemplate(source, form)).toBe(rewritten)
  })

  it.each([
    ['object != null && size(object) > 0'],
    ['object.metadata.exists(k, true)'],
    ["(object).metadata.name == 'x'"],
    ['object.?kind.hasValue()'],
  ])('refuses %s', (source) => {
    expect(() => rewriteForPodTemplate(source, 'controllers')).toThrow(NotRewritable)
  })

  /** The rewritten expression on a controller answers what the expression answers on Verdict's view of its pod template. */
  it('reads on the controller what Verdict reads on the Pod it presents', () => {
    const expressions = [
      "object.metadata.name + '/' + object.metadata.namespace",
      'has(object.metadata.name)',
      "has(object.metadata.labels) && 'app' in object.metadata.labels",
      'object.metadata.?labels.orValue({}).size()',
      "object.spec.containers.map(c, c.image).join(',')",
      'has(object.spec.hostNetwork)',
      'object.kind + object.apiVersion',
      'has(object.status)',
    ]
    const template = (metadata: Record<string, unknown> | undefined) => ({ ...(metadata ? { metadata } : {}), spec: { containers: [{ name: 'c', image: 'nginx:1' }] } })
    const controllers = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { template: template({ labels: { app: 'web' }, name: 'ignored' }) } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bare', namespace: 'shop' }, spec: { template: template(undefined) } },
      { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once', namespace: 'ops' }, spec: { template: template({ namespace: 'other' }) } },
    ]
    for (const controller of controllers) {
      const pod = podFromController(controller) as Record<string, unknown>
      for (const expression of expressions) {
        const onPod = compileCel(expression).evaluate({ object: toCelValue(pod), oldObject: null })
        const onController = compileCel(rewriteForPodTemplate(expression, 'controllers')).evaluate({ object: toCelValue(controller), oldObject: null })
        expect({ controller: controller.metadata.name, expression, value: onController }).toEqual({ controller: controller.metadata.name, expression, value: onPod })
      }
    }
  })
})
