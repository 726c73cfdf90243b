import { describe, expect, it } from 'vitest'
import { formatJunit } from '../../src/scan/output/junit-output.js'
import { xmlAttribute, xmlText } from '../../src/scan/output/xml-text.js'
import { sampleClusterReport } from './sample-cluster-report.js'
import { sampleReport } from './sample-report.js'

describe('formatJunit', () => {
  it('writes one testsuite per policy and one testcase per judged (object, rule), with a failure for each fail or error', () => {
    expect(formatJunit(sampleReport())).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="verdict scan" tests="4" failures="3" errors="0">
  <testsuite name="prod" tests="2" failures="1" errors="0" skipped="0">
    <properties>
      <property name="action" value="Deny"/>
    </properties>
    <testcase name="Deployment shop/web hygiene/no-latest" classname="prod.hygiene" file="deploy/app.yaml" line="3">
      <failure message="images must be pinned, found &lt;nginx:latest&gt; &amp; &quot;more&quot;" type="fail">Deployment shop/web at deploy/app.yaml:3
policy prod (Deny), rule hygiene/no-latest, severity high, fail
images must be pinned, found &lt;nginx:latest&gt; &amp; &quot;more&quot;</failure>
    </testcase>
    <testcase name="Deployment shop/web hygiene/team-label" classname="prod.hygiene" file="deploy/app.yaml" line="3"/>
  </testsuite>
  <testsuite name="advisory" tests="1" failures="1" errors="0" skipped="0">
    <properties>
      <property name="action" value="Warn"/>
    </properties>
    <testcase name="Deployment shop/web probes/readiness" classname="advisory.probes" file="deploy/app.yaml" line="3">
      <failure message="container web&#10;  needs a readiness probe" type="fail">Deployment shop/web at deploy/app.yaml:3
policy advisory (Warn), rule probes/readiness, severity low, fail
container web
  needs a readiness probe</failure>
    </testcase>
  </testsuite>
  <testsuite name="audit-only" tests="1" failures="1" errors="0" skipped="0">
    <properties>
      <property name="action" value="Audit"/>
    </properties>
    <testcase name="Service web net/no-nodeport" classname="audit-only.net" file="deploy/app.yaml" line="40">
      <failure message="rule net/no-nodeport could not be evaluated" type="error">Service web at deploy/app.yaml:40
policy audit-only (Audit), rule net/no-nodeport, severity low, error
field spec.type
rule net/no-nodeport could not be evaluated</failure>
    </testcase>
  </testsuite>
</testsuites>`)
  })

  it('names the cluster as the file of an object listed from one, with no line', () => {
    const xml = formatJunit(sampleClusterReport())
    expect(xml).toContain(`    <testcase name="Pod shop/web-1 hygiene/no-latest" classname="prod.hygiene" file="cluster:kind-dev">
      <failure message="images must be pinned" type="fail">Pod shop/web-1 at cluster:kind-dev
policy prod (Deny), rule hygiene/no-latest, severity high, fail
images must be pinned</failure>`)
    expect(xml).not.toContain('line=')
  })

  it('keeps XML well formed whatever a message holds', () => {
    expect(xmlText(`a\u0000b\u001bc\ud800d\udc00e\ud83d\ude00f<'>`)).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\ud83d\ude00f&lt;&apos;&gt;')
    expect(xmlAttribute('two\r\nlines\tand a tab')).toBe('two&#13;&#10;lines&#9;and a tab')
  })
})
