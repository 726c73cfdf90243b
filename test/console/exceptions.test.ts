import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../server/test-service.js'
import { launchBrowser, recordingPage, screenshot, clickButton, clickLink, text } from './browser.js'

const HOUR = 3600_000
const DAY = 24 * HOUR

/** A privileged Pod in billing that the exception below names: production denies it, the exception lets it through. */
const LEGACY_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'legacy-api', namespace: 'billing' },
  spec: { containers: [{ name: 'api', image: 'registry.example.com/billing:1.0', securityContext: { privileged: true } }] },
}

/** The exception as typed into the editor: plain form, block lists, ending three days and an hour from now. */
function exceptionYaml(expiresAt: string, condition: string): string {
  return `policies:
- production
rules:
- ruleset: pod-security
  rule: no-privileged
match:
  kinds:
  - Pod
  namespaces:
  - billing
  names:
  - legacy-*
conditions:
- expression: "${condition}"
reason: the vendor agent needs privileged mode until the Q1 upgrade
ticket: OPS-1234
owner: billing-team@example.com
expiresAt: "${expiresAt}"
`
}

describe('the Exceptions screen in a real browser', () => {
  let service: TestService
  let browser: Browser
  const requests: string[] = []
  const pageErrors: string[] = []
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${service.server.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })

  beforeAll(async () => {
    ;[service, browser] = await Promise.all([startTestService('pglite'), launchBrowser()])
    const ruleset = {
      rules: [{ name: 'no-privileged', severity: 'high', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } } }],
    }
    expect((await api('/api/rulesets/pod-security', { method: 'POST', body: JSON.stringify(ruleset) })).status).toBe(201)
    expect((await api('/api/policies/production', { method: 'POST', body: JSON.stringify({ rulesets: ['pod-security'], action: 'Deny' }) })).status).toBe(201)
    expect((await api('/api/policies/staging', { method: 'POST', body: JSON.stringify({ rulesets: ['pod-security'], action: 'Audit' }) })).status).toBe(201)
    // One that ended two hours and five minutes ago, on another policy: what the filters tell apart.
    const ended = { policies: ['staging'], match: { kinds: ['Pod'], namespaces: ['ci'] }, reason: 'load test window', expiresAt: new Date(Date.now() - 2 * HOUR - 5 * 60_000).toISOString() }
    expect((await api('/api/exceptions/load-test', { method: 'POST', body: JSON.stringify(ended) })).status).toBe(201)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await service?.close()
    expect(pageErrors).toEqual([])
    expect(requests.filter((url) => new URL(url).protocol !== 'data:' && new URL(url).origin !== service.server.apiUrl)).toEqual([])
  })

  async function signedIn(): Promise<Page> {
    const { page } = await recordingPage(browser)
    page.on('request', (request) => requests.push(request.url()))
    page.on('pageerror', (error) => pageErrors.push(error instanceof Error ? error.message : String(error)))
    await page.goto(`${service.server.apiUrl}/`)
    await page.waitForSelector('#token')
    await page.type('#token', service.adminToken)
    await page.click('button[type=submit]')
    await page.waitForSelector('header.top')
    return page
  }

  const setEditor = (page: Page, value: string) =>
    page.$eval(
      '#exception-yaml-editor',
      (area, next) => {
        const textarea = area as HTMLTextAreaElement
        textarea.value = next
        textarea.dispatchEvent(new Event('input', { bubbles: true }))
      },
      value,
    )
  /** The listed rows, each as its cells' text. */
  const rows = (page: Page) => page.$$eval('table.exceptions tbody tr', (found) => found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')))

  it('creates an exception, lists it with its time to expiry, edits it, shows it on the audit it allowed, and deletes it', async () => {
    const page = await signedIn()
    await clickLink(page, 'Exceptions')
    await page.waitForFunction(() => document.querySelectorAll('table.exceptions tbody tr').length === 1)
    expect(await rows(page)).toEqual([['load-test', 'staging · every rule', 'expired', 'expired 2 h ago', '', 'load test window']])

    // Created in the editor: the API's error about a CEL condition is shown on its line, and nothing is stored.
    await clickLink(page, 'New exception')
    await page.waitForSelector('#exception-yaml-editor')
    await page.type('#exception-name', 'legacy-billing')
    const expiresAt = new Date(Date.now() + 3 * DAY + HOUR).toISOString()
    const broken = exceptionYaml(expiresAt, "object.spec.containers.all(c, c.image.startsWith('registry.example.com/')")
    await setEditor(page, broken)
    await clickButton(page, 'Create')
    await page.waitForSelector('#yaml-error')
    const conditionLine = broken.split('\n').findIndex((line) => line.startsWith('- expression:')) + 1
    expect(await page.$eval('#yaml-error', (element) => (element as HTMLElement).dataset.line)).toBe(String(conditionLine))
    expect(await text(page, '#yaml-error')).toMatch(new RegExp(`^Line ${conditionLine}: exception does not compile: body\\.conditions\\[0\\]\\.expression \\(line 1, column \\d+\\): `))
    expect((await api('/api/exceptions/legacy-billing')).status).toBe(404)
    await setEditor(page, exceptionYaml(expiresAt, "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"))
    await clickButton(page, 'Create')
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Exception legacy-billing')
    await page.waitForFunction(() => (document.querySelector('#exception-yaml')?.textContent ?? '').includes('reason: the vendor agent'))
    expect(await text(page, '#exception-state-value')).toBe('active')
    expect(await text(page, 'dl.facts')).toContain('in 3 days')
    const created = (await (await api('/api/exceptions/legacy-billing')).json()) as Record<string, unknown>
    expect(created).toMatchObject({ version: 1, state: 'active', createdBy: 'admin@verdict.local', policies: ['production'], expiresAt, ticket: 'OPS-1234' })

    // Listed with its state and time to expiry; the filters are the API's.
    await clickLink(page, 'Exceptions')
    await page.waitForFunction(() => document.querySelectorAll('table.exceptions tbody tr').length === 2)
    expect(await rows(page)).toEqual([
      ['legacy-billing', 'production · pod-security/no-privileged', 'active', 'in 3 days', 'billing-team@example.com', 'the vendor agent needs privileged mode until the Q1 upgrade'],
      ['load-test', 'staging · every rule', 'expired', 'expired 2 h ago', '', 'load test window'],
    ])
    await screenshot(page, 'exceptions')
    await page.select('#exception-state', 'expired')
    await clickButton(page, 'Filter')
    await page.waitForFunction(() => document.querySelectorAll('table.exceptions tbody tr').length === 1)
    expect((await rows(page)).map((row) => row[0])).toEqual(['load-test'])
    await page.select('#exception-state', '')
    await page.select('#exception-policy', 'production')
    await clickButton(page, 'Filter')
    await page.waitForFunction(() => [...document.querySelectorAll('table.exceptions tbody tr')].map((row) => row.getAttribute('data-name')).join() === 'legacy-billing')
    expect(requests.some((url) => new URL(url).pathname === '/api/exceptions' && new URL(url).searchParams.get('policy') === 'production')).toBe(true)
    expect(requests.some((url) => new URL(url).pathname === '/api/exceptions' && new URL(url).searchParams.get('state') === 'expired')).toBe(true)

    // Edited as YAML: saved with PUT, a new version.
    await clickLink(page, 'legacy-billing')
    await clickButton(page, 'Edit YAML')
    await page.waitForSelector('#exception-yaml-editor')
    const stored = await page.$eval('#exception-yaml-editor', (area) => (area as HTMLTextAreaElement).value)
    expect(stored).not.toContain('state:')
    expect(stored).not.toContain('version:')
    await setEditor(page, stored.replace('until the Q1 upgrade', 'until the Q2 upgrade'))
    await clickButton(page, 'Save YAML')
    await page.waitForFunction(() => (document.querySelector('#exception-yaml')?.textContent ?? '').includes('Q2 upgrade'))
    expect(await (await api('/api/exceptions/legacy-billing')).json()).toMatchObject({ version: 2, reason: 'the vendor agent needs privileged mode until the Q2 upgrade', expiresAt })

    // An evaluation it allowed: its audit names the exception and links to it.
    const evaluation = (await (await api('/api/eval/policies/production', { method: 'POST', body: JSON.stringify({ inputData: LEGACY_POD }) })).json()) as { requestId: string; passed: boolean; results: unknown[] }
    expect(evaluation).toMatchObject({ passed: true, results: [{ ruleset: 'pod-security', rule: 'no-privileged', status: 'skip', exception: 'legacy-billing' }] })
    await clickLink(page, 'Audits')
    await page.waitForFunction((id) => [...document.querySelectorAll('tbody tr')].some((row) => row.querySelector(`a[href$="/ui/audits/${id}"]`) && row.textContent?.includes('allowed by exception legacy-billing')), {}, evaluation.requestId)
    await page.click(`a[href$="/ui/audits/${evaluation.requestId}"]`)
    await page.waitForSelector('p.exemptions')
    expect(await text(page, 'p.exemptions')).toBe('Allowed by exception legacy-billing: the rules it let through are listed as skip.')
    expect(await text(page, 'section table tbody')).toBe('pod-securityno-privilegedskiphighexempted by exception "legacy-billing" (exception legacy-billing)')
    await screenshot(page, 'audit-exception')
    await page.click('p.exemptions a')
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Exception legacy-billing')

    // Deleted only once confirmed.
    await clickButton(page, 'Delete')
    await page.waitForSelector('.confirm[role=alertdialog]')
    await clickButton(page, 'Keep it')
    await page.waitForFunction(() => document.querySelector('.confirm') === null)
    expect((await api('/api/exceptions/legacy-billing')).status).toBe(200)
    await clickButton(page, 'Delete')
    await clickButton(page, 'Delete legacy-billing')
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Exceptions')
    await page.waitForFunction(() => document.querySelectorAll('table.exceptions tbody tr').length === 1)
    expect((await rows(page)).map((row) => row[0])).toEqual(['load-test'])
    expect((await api('/api/exceptions/legacy-billing')).status).toBe(404)
    await page.close()
  }, 120_000)

  it('shows a token without exceptions:write the actions it may not take', async () => {
    const created = (await (await api('/api/tokens', { method: 'POST', body: JSON.stringify({ name: 'exception-reader', owner: 'reader', scopes: ['exceptions:read', 'policies:read'] }) })).json()) as { secret: string }
    const { page } = await recordingPage(browser)
    page.on('pageerror', (error) => pageErrors.push(error instanceof Error ? error.message : String(error)))
    await page.goto(`${service.server.apiUrl}/ui/exceptions/load-test`)
    await page.waitForSelector('#token')
    await page.type('#token', created.secret)
    await page.click('button[type=submit]')
    await page.waitForSelector('#exception-yaml')
    const buttons = await page.$$eval('section button', (found) => found.map((button) => [button.textContent, (button as HTMLButtonElement).disabled]))
    expect(buttons).toEqual([
      ['Edit YAML (needs exceptions:write)', true],
      ['Delete (needs exceptions:write)', true],
    ])
    await page.close()
  }, 60_000)
})
