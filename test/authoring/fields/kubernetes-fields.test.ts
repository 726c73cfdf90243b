import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  KIND_SOURCES,
  MAX_DEPTH,
  buildKubernetesFieldTable,
  parseDefault,
  renderKubernetesFieldsModule,
} from '../../../src/authoring/fields/kubernetes-field-table.js'
import {
  KUBERNETES_FIELDS_SOURCE,
  kubernetesField,
  kubernetesFieldApiVersion,
  kubernetesFieldKinds,
  kubernetesFields,
} from '../../../src/authoring/fields/kubernetes-fields.js'

const GENERATED = new URL('../../../src/authoring/fields/kubernetes-fields.generated.ts', import.meta.url)

describe('the generated Kubernetes field table', () => {
  it('is what `npm run generate:fields` writes from the installed kubernetes-models', () => {
    const installed = JSON.parse(readFileSync('node_modules/kubernetes-models/package.json', 'utf8')) as { version: string }
    expect(KUBERNETES_FIELDS_SOURCE).toBe(`kubernetes-models@${installed.version}`)
    expect(renderKubernetesFieldsModule(buildKubernetesFieldTable())).toBe(readFileSync(GENERATED, 'utf8'))
  })

  it('stays small: shared models are listed once', () => {
    expect(readFileSync(GENERATED, 'utf8').length).toBeLessThan(300_000)
  })

  it('covers every kind with its apiVersion', () => {
    expect(kubernetesFieldKinds()).toEqual(KIND_SOURCES.map((source) => source.kind))
    expect(kubernetesFieldApiVersion('CronJob')).toBe('batch/v1')
    expect(kubernetesFieldApiVersion('HorizontalPodAutoscaler')).toBe('autoscaling/v2')
    for (const { kind, apiVersion } of KIND_SOURCES) {
      expect(kubernetesField(kind, 'apiVersion'), kind).toEqual({ path: 'apiVersion', type: 'string', enum: [apiVersion] })
      expect(kubernetesField(kind, 'metadata.name'), kind).toEqual({ path: 'metadata.name', type: 'string' })
    }
    expect(kubernetesFields('Banana')).toEqual([])
  })

  it('types fields, with the defaults descriptions state as plain literals', () => {
    expect(kubernetesField('Pod', 'spec.hostNetwork')).toEqual({ path: 'spec.hostNetwork', type: 'boolean', default: false })
    expect(kubernetesField('Deployment', 'spec.replicas')).toEqual({ path: 'spec.replicas', type: 'integer', default: 1 })
    expect(kubernetesField('CronJob', 'spec.concurrencyPolicy')).toEqual({
      path: 'spec.concurrencyPolicy',
      type: 'string',
      enum: ['Allow', 'Forbid', 'Replace'],
      default: 'Allow',
    })
    expect(kubernetesField('Deployment', 'spec.template.spec.containers[].image')).toEqual({
      path: 'spec.template.spec.containers[].image',
      type: 'string',
    })
    expect(kubernetesField('Pod', 'spec.containers[].securityContext.privileged')).toMatchObject({
      type: 'boolean',
      default: false,
    })
    expect(kubernetesField('Pod', 'spec.dnsPolicy')).toMatchObject({ type: 'string', default: 'ClusterFirst' })
    expect(kubernetesField('Pod', 'spec.terminationGracePeriodSeconds')).toMatchObject({ type: 'integer', default: 30 })
    expect(kubernetesField('Deployment', 'spec.progressDeadlineSeconds')).toMatchObject({ default: 600 })
    expect(kubernetesField('Deployment', 'spec.strategy.rollingUpdate.maxSurge')).toEqual({
      path: 'spec.strategy.rollingUpdate.maxSurge',
      type: 'int-or-string',
      default: '25%',
    })
    expect(kubernetesField('Service', 'spec.type')).toMatchObject({ default: 'ClusterIP' })
    expect(kubernetesField('HorizontalPodAutoscaler', 'spec.minReplicas')).toMatchObject({ type: 'integer', default: 1 })
    expect(kubernetesField('PodDisruptionBudget', 'spec.minAvailable')).toMatchObject({ type: 'int-or-string' })
    expect(kubernetesField('StatefulSet', 'spec.podManagementPolicy')).toMatchObject({
      enum: ['OrderedReady', 'Parallel'],
      default: 'OrderedReady',
    })
  })

  it('leaves out conditional and descriptive defaults', () => {
    // "Defaults to Always if :latest tag is specified, or IfNotPresent otherwise."
    expect(kubernetesField('Pod', 'spec.containers[].imagePullPolicy')?.default).toBeUndefined()
    // "Defaults to 6, unless backoffLimitPerIndex (only Indexed Job) is specified."
    expect(kubernetesField('Job', 'spec.backoffLimit')?.default).toBeUndefined()
    // "Defaults to 0644." is an octal file mode
    expect(kubernetesField('Pod', 'spec.volumes[].secret.defaultMode')?.default).toBeUndefined()
    // "Defaults to user specified in image metadata if unspecified."
    expect(kubernetesField('Pod', 'spec.securityContext.runAsUser')?.default).toBeUndefined()
  })

  it('lists maps with the type of their values, and array items with theirs', () => {
    expect(kubernetesField('Pod', 'metadata.labels')).toEqual({ path: 'metadata.labels', type: 'map', values: 'string' })
    expect(kubernetesField('Pod', 'spec.containers[].resources.limits')).toMatchObject({ type: 'map', values: 'quantity' })
    expect(kubernetesField('NetworkPolicy', 'spec.policyTypes')).toEqual({ path: 'spec.policyTypes', type: 'array' })
    expect(kubernetesField('NetworkPolicy', 'spec.policyTypes[]')).toEqual({
      path: 'spec.policyTypes[]',
      type: 'string',
      enum: ['Egress', 'Ingress'],
    })
  })

  it('lists the pod spec, with every container list, under each controller', () => {
    const podSpec = kubernetesFields('Pod')
      .filter((field) => field.path.startsWith('spec.'))
      .map((field) => field.path.slice('spec.'.length))
    expect(podSpec).toContain('containers[].securityContext.privileged')
    expect(podSpec).toContain('initContainers[].securityContext.privileged')
    expect(podSpec).toContain('ephemeralContainers[].securityContext.privileged')
    const roots: Record<string, string> = {
      Deployment: 'spec.template.spec.',
      StatefulSet: 'spec.template.spec.',
      DaemonSet: 'spec.template.spec.',
      ReplicaSet: 'spec.template.spec.',
      Job: 'spec.template.spec.',
      CronJob: 'spec.jobTemplate.spec.template.spec.',
    }
    for (const [kind, root] of Object.entries(roots)) {
      const paths = new Set(kubernetesFields(kind).map((field) => field.path))
      expect(podSpec.filter((path) => !paths.has(root + path)), kind).toEqual([])
    }
  })

  it('leaves out status and managedFields, and stops at the depth limit', () => {
    for (const kind of kubernetesFieldKinds()) {
      for (const { path, type } of kubernetesFields(kind)) {
        expect(path, kind).not.toMatch(/(^|\.)managedFields\b/)
        // A status object is left out; a string named status (a pod condition's) is a field like any other.
        if (/(^|\.)status$/.test(path)) expect(type, `${kind} ${path}`).toBe('string')
      }
    }
    expect(kubernetesField('StatefulSet', 'spec.volumeClaimTemplates[].status')).toBeUndefined()
    expect(kubernetesField('Job', 'spec.podFailurePolicy.rules[].onPodConditions[].status')).toMatchObject({
      type: 'string',
      default: 'True',
    })
    const depths = kubernetesFields('Pod').map((field) => field.path.replace(/\[\]/g, '').split('.').length)
    expect(Math.max(...depths)).toBeLessThanOrEqual(MAX_DEPTH)
    const paths = kubernetesFields('Pod').map((field) => field.path)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it('marks deprecated and feature-gated fields', () => {
    expect(kubernetesField('Pod', 'spec.serviceAccount')).toMatchObject({ deprecated: true })
    expect(kubernetesField('Pod', 'spec.serviceAccountName')?.deprecated).toBeUndefined()
    // The description mentions the deprecated annotation, not a deprecated field.
    expect(kubernetesField('Ingress', 'spec.ingressClassName')?.deprecated).toBeUndefined()
    expect(kubernetesField('Pod', 'spec.resources')).toMatchObject({ featureGated: true })
  })
})

describe('parseDefault', () => {
  const boolean = { type: 'boolean' } as const
  const integer = { type: 'integer' } as const
  const string = { type: 'string' } as const

  it('reads plain literals', () => {
    expect(parseDefault('Use the host network. Defaults to false.', boolean)).toBe(false)
    expect(parseDefault('Optional: Default to true.', boolean)).toBe(true)
    expect(parseDefault('Number of desired pods. Defaults to 1.', integer)).toBe(1)
    expect(parseDefault('Default is TCP.', string)).toBe('TCP')
    expect(parseDefault('Defaults to "ClusterFirst".', string)).toBe('ClusterFirst')
    expect(parseDefault('The default value is 10.', integer)).toBe(10)
    expect(parseDefault('If unspecified, defaults to 1.', integer)).toBe(1)
    expect(parseDefault('Valid values are: - "Allow" (default): allows runs', { type: 'string', enum: ['Allow', 'Forbid'] })).toBe(
      'Allow',
    )
  })

  it('takes a unit only where the field name carries it', () => {
    expect(parseDefault('Defaults to 30 seconds.', integer, 'terminationGracePeriodSeconds')).toBe(30)
    expect(parseDefault('Defaults to 600s.', integer, 'progressDeadlineSeconds')).toBe(600)
    expect(parseDefault('Defaults to 30 seconds.', integer, 'replicas')).toBeUndefined()
    expect(parseDefault('Defaults to 1 hour and must be at least 10 minutes.', integer, 'expirationSeconds')).toBeUndefined()
  })

  it('refuses conditional, descriptive and mistyped defaults', () => {
    expect(parseDefault('Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.', string)).toBeUndefined()
    expect(parseDefault('Defaults to the user specified in image metadata if unspecified.', string)).toBeUndefined()
    expect(parseDefault('Defaults to 6, unless backoffLimitPerIndex is specified.', integer)).toBeUndefined()
    expect(parseDefault('Defaults to 0644.', integer)).toBeUndefined()
    expect(parseDefault('Defaults to false.', integer)).toBeUndefined()
    expect(parseDefault('Default is Sometimes.', { type: 'string', enum: ['Always', 'Never'] })).toBeUndefined()
    expect(parseDefault('If not specified, the pod will be dispatched by default scheduler.', string)).toBeUndefined()
  })
})
