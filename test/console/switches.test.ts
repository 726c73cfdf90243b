import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../server/test-service.js'
import { launchBrowser, recordingPage, screenshot, clickButton, clickLink, text } from './browser.js'

const PRIVILEGED_LATEST_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    image: nginx:latest
    securityContext:
      privileged: true
`

describe('switching policies and rules off and on in a real browser', () => {
  let service: TestService
  let browser: Browser
  const pageErrors: string[] = []
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${service.server.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })

  beforeAll(async () => {
    ;[service, browser] = await Promise.all([startTestService('pglite'), launchBrowser()])
    const ruleset = {
      rules: [
        { name: 'no-privileged', severity: 'high', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } } },
        { name: 'no-latest', severity: 'medium', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] } },
      ],
    }
    expect((await api('/api/rulesets/pod-hardening', { method: 'POST', body: JSON.stringify(ruleset) })).status).toBe(201)
    expect((await api('/api/policies/production', { method: 'POST', body: JSON.stringify({ rulesets: ['pod-hardening'], action: 'Deny', labels: { team: 'web' } }) })).status).toBe(201)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await service?.close()
    expect(pageErrors).toEqual([])
  })

  async function signedIn(): Promise<Page> {
    const { page } = await recordingPage(browser)
    page.on('pageerror', (error) => pageErrors.push(error instanceof Error ? error.message : String(error)))
    await page.goto(`${service.server.apiUrl}/`)
    await page.waitForSelector('#token')
    await page.type('#token', service.adminToken)
    await page.click('button[type=submit]')
    await page.waitForSelector('header.top')
    return page
  }

  const tryIt = async (page: Page) => {
    await clickLink(page, 'Try it')
    await page.waitForSelector('#try-target option[value="policies/production"]')
    await page.select('#try-target', 'policies/production')
    await page.type('#try-document', PRIVILEGED_LATEST_POD)
    await page.click('section form button.primary')
    await page.waitForSelector('.verdict')
  }

  it('switches a policy off with a reason, shows it judged nothing, and switches it back on', async () => {
    const page = await signedIn()
    await clickLink(page, 'Policies')
    await clickButton(page, 'Switch off')
    await page.waitForSelector('input[aria-label="Why switch off policy production"]')
    // No reason, no switch: the API requires one, and the button waits for it.
    expect(await page.$eval('form.switch-off button.danger', (button) => (button as HTMLButtonElement).disabled)).toBe(true)
    await page.type('input[aria-label="Why switch off policy production"]', 'replaced by restricted-pods')
    await clickButton(page, 'Switch off policy production')
    await page.waitForSelector('.switch[data-enabled="false"]')
    expect(await text(page, '.switch[data-enabled="false"]')).toBe('off replaced by restricted-pods Switch on')
    const off = (await (await api('/api/policies/production')).json()) as Record<string, unknown>
    // Written back whole: only the switch changed.
    expect(off).toMatchObject({ version: 2, action: 'Deny', rulesets: ['pod-hardening'], labels: { team: 'web' }, enabled: false, disabledReason: 'replaced by restricted-pods' })

    await tryIt(page)
    expect(await text(page, '.verdict h2')).toBe('Passed')
    expect(await text(page, '.switched-off-note')).toBe('The policy is switched off (replaced by restricted-pods): it judged nothing.')

    await clickLink(page, 'Policies')
    await clickButton(page, 'Switch on')
    await page.waitForSelector('.switch[data-enabled="true"]')
    const on = (await (await api('/api/policies/production')).json()) as Record<string, unknown>
    expect(on).toMatchObject({ version: 3, labels: { team: 'web' } })
    expect(on).not.toHaveProperty('enabled')
    expect(on).not.toHaveProperty('disabledReason')
    await page.close()
  }, 60_000)

  it('switches one rule of a ruleset off: the evaluation lists it as a skip saying so, the other rule still judges', async () => {
    const page = await signedIn()
    await clickLink(page, 'Rulesets')
    await clickLink(page, 'pod-hardening')
    await page.waitForSelector('tr[data-rule="no-latest"] .switch[data-enabled="true"]')
    await page.click('tr[data-rule="no-latest"] .switch button')
    await page.type('input[aria-label="Why switch off rule no-latest"]', 'the registry migration retags images')
    await clickButton(page, 'Switch off rule no-latest')
    await page.waitForSelector('tr[data-rule="no-latest"] .switch[data-enabled="false"]')
    expect(await page.$eval('tr[data-rule="no-privileged"] .switch', (element) => (element as HTMLElement).dataset.enabled)).toBe('true')
    const stored = (await (await api('/api/rulesets/pod-hardening')).json()) as { version: number; rules: Record<string, unknown>[] }
    expect(stored.version).toBe(2)
    expect(stored.rules.map((rule) => [rule.name, rule.enabled, rule.disabledReason])).toEqual([
      ['no-privileged', undefined, undefined],
      ['no-latest', false, 'the registry migration retags images'],
    ])
    // The YAML shows it as stored.
    await page.waitForFunction(() => (document.querySelector('#ruleset-yaml')?.textContent ?? '').includes('enabled: false'))
    await screenshot(page, 'rule-switched-off')

    await tryIt(page)
    expect(await text(page, '.verdict h2')).toBe('Failed')
    const rows = await page.$$eval('.verdict tbody tr', (found) => found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')))
    expect(rows).toEqual([
      ['pod-hardening', 'no-privileged', 'fail', 'high', expect.stringContaining('privileged')],
      ['pod-hardening', 'no-latest', 'skip', 'medium', 'rule switched off: the registry migration retags images'],
    ])
    await page.close()
  }, 60_000)
})
