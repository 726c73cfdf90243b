import type { Browser, Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../server/test-service.js'
import { launchBrowser, recordingPage, screenshot, clickButton, clickLink, text } from './browser.js'

const PRIVILEGED_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    image: nginx:1.27
    securityContext:
      privileged: true
`

describe('the console in a real browser', () => {
  let service: TestService
  let browser: Browser
  const requests: string[] = []
  const pageErrors: string[] = []
  const api = (path: string, init: RequestInit = {}, token = service.adminToken) =>
    fetch(`${service.server.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })

  beforeAll(async () => {
    ;[service, browser] = await Promise.all([startTestService('pglite'), launchBrowser()])
    const ruleset = {
      rules: [{ name: 'no-privileged', severity: 'high', match: { kinds: ['Pod'] }, validate: { pattern: { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } } } }],
    }
    expect((await api('/api/rulesets/pod-security', { method: 'POST', body: JSON.stringify(ruleset) })).status).toBe(201)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await service?.close()
    // Every request of every page went to the service's own origin: no CDN, no font host, no telemetry.
    // (A data: URL leaves nothing: Chromium draws its own date picker's icon with one.)
    expect(requests.length).toBeGreaterThan(10)
    expect(pageErrors).toEqual([])
    expect(requests.filter((url) => new URL(url).protocol !== 'data:' && new URL(url).origin !== service.server.apiUrl)).toEqual([])
  })

  async function signedIn(token: string): Promise<Page> {
    const recorded = await recordingPage(browser)
    recorded.page.on('request', (request) => requests.push(request.url()))
    recorded.page.on('pageerror', (error) => pageErrors.push(error instanceof Error ? error.message : String(error)))
    const { page } = recorded
    await page.goto(`${service.server.apiUrl}/`)
    await page.waitForSelector('#token')
    await page.type('#token', token)
    await page.click('button[type=submit]')
    await page.waitForSelector('header.top')
    return page
  }


  it('signs in, creates a policy, evaluates a document, finds its audit and opens the remediation', async () => {
    const page = await signedIn(service.adminToken)
    expect(await text(page, 'h1')).toBe('Overview')
    await screenshot(page, 'overview')

    await clickLink(page, 'Policies')
    await page.waitForSelector('#policy-name')
    await page.type('#policy-name', 'production')
    await page.select('#policy-action', 'Deny')
    await page.select('#policy-rulesets', 'pod-security')
    await page.click('form.stacked button.primary')
    await page.waitForFunction(() => [...document.querySelectorAll('tbody td')].some((cell) => cell.textContent === 'production'))
    const stored = (await (await api('/api/policies/production')).json()) as { action: string; rulesets: string[] }
    expect(stored).toMatchObject({ action: 'Deny', rulesets: ['pod-security'] })
    await screenshot(page, 'policies')

    await clickLink(page, 'Try it')
    await page.waitForSelector('#try-target option')
    await page.select('#try-target', 'policies/production')
    await page.type('#try-document', PRIVILEGED_POD)
    await page.click('section form button.primary')
    await page.waitForSelector('.verdict')
    expect(await text(page, '.verdict h2')).toBe('Failed')
    expect(await text(page, '.verdict tbody')).toContain('no-privileged')
    await screenshot(page, 'try-it')

    const requestId = await page.$eval('.verdict p a', (link) => link.textContent ?? '')
    await page.click('.verdict p a')
    await page.waitForSelector('.remediation')
    expect(await text(page, 'h1')).toBe(`Audit ${requestId}`)
    expect(await text(page, '.remediation')).toContain('spec.containers[0].securityContext.privileged')
    await screenshot(page, 'audit')

    await clickLink(page, 'Timeseries')
    await page.waitForSelector('#series-target option')
    await page.select('#series-target', 'policies/production')
    await page.waitForSelector('.chart[data-drawn="true"] canvas')
    expect(await page.$eval('.chart', (chart) => [(chart as HTMLElement).dataset.passed, (chart as HTMLElement).dataset.failed])).toEqual(['0', '1'])
    expect(await text(page, 'table.top-rules tbody')).toContain('no-privileged')
    await screenshot(page, 'timeseries')

    await clickLink(page, 'Audits')
    await page.waitForFunction((id) => [...document.querySelectorAll('tbody a')].some((link) => (link as HTMLAnchorElement).href.endsWith(`/ui/audits/${id}`)), {}, requestId)
    // The outcome filter is the API's (passed=false|true).
    await page.select('#audit-outcome', 'passed')
    await clickButton(page, 'Filter')
    await page.waitForFunction(() => document.querySelectorAll('tbody a').length === 0)
    await page.select('#audit-outcome', 'failed')
    await clickButton(page, 'Filter')
    await page.waitForFunction((id) => [...document.querySelectorAll('tbody a')].some((link) => (link as HTMLAnchorElement).href.endsWith(`/ui/audits/${id}`)), {}, requestId)
    expect(requests.some((url) => new URL(url).pathname === '/api/audits/policies' && new URL(url).searchParams.get('passed') === 'false')).toBe(true)
    // The ruleset audits of the same evaluation.
    await page.select('form.filters select', 'rulesets')
    await clickButton(page, 'Filter')
    await page.waitForFunction(() => [...document.querySelectorAll('tbody td')].some((cell) => cell.textContent === 'pod-security'))
    expect(requests.some((url) => new URL(url).pathname === '/api/audits/rulesets' && new URL(url).searchParams.get('ruleset_name') === '*')).toBe(true)
    await screenshot(page, 'audits')
    await page.close()
  }, 120_000)

  it('creates a ruleset from an instruction: checked as typed, interpreted sentence by sentence, samples judged, saved', async () => {
    const page = await signedIn(service.adminToken)
    await clickLink(page, 'Rulesets')
    await clickLink(page, 'New ruleset from an instruction')
    await page.waitForSelector('#ruleset-instruction')
    await page.type('#ruleset-name', 'no-privileged-pods')
    await page.type('#ruleset-instruction', 'Containers must not run as privileged.')
    await page.waitForSelector('#prompt-check[data-valid="true"]')
    expect(await text(page, '#interpretation')).toContain('no-privileged-containers')
    // The hints come from their own request, which may answer after the check.
    await page.waitForFunction(() => (document.querySelector('#hints')?.textContent ?? '').includes('No privileged containers'))
    expect(await text(page, '#hints')).toContain('No privileged containers')
    await clickButton(page, 'Dry run')
    await page.waitForSelector('#dry-run details.sample')
    expect(await text(page, '#dry-run table')).toContain('no-privileged-containers')
    const samples = await page.$$eval('#dry-run details.sample', (elements) => elements.map((element) => [(element as HTMLElement).dataset.label, (element as HTMLElement).dataset.passed]))
    expect(samples).toContainEqual(['compliant', 'true'])
    expect(samples).toContainEqual(['non-compliant', 'false'])
    // A dry run stores nothing.
    expect((await api('/api/rulesets/no-privileged-pods')).status).toBe(404)
    await screenshot(page, 'ruleset-from-instruction')
    await clickButton(page, 'Save')
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Ruleset no-privileged-pods')
    await page.waitForFunction(() => (document.querySelector('#ruleset-yaml')?.textContent ?? '').includes('no-privileged-containers'))
    expect(await text(page, '#ruleset-yaml')).toContain('instruction: Containers must not run as privileged.')
    expect((await api('/api/rulesets/no-privileged-pods')).status).toBe(200)
    await page.close()
  }, 60_000)

  it('edits a policy in the form without losing what the form does not show', async () => {
    const stored = { rulesets: ['pod-security'], action: 'Audit', failurePolicy: 'Ignore', labels: { team: 'web' }, match: { kinds: ['Pod'], namespaceSelector: { matchLabels: { env: 'prod' } } } }
    expect((await api('/api/policies/selective', { method: 'POST', body: JSON.stringify(stored) })).status).toBe(201)
    const page = await signedIn(service.adminToken)
    await clickLink(page, 'Policies')
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].some((row) => row.textContent?.startsWith('selective')))
    await page.evaluate(() => [...([...document.querySelectorAll('tbody tr')].find((row) => row.textContent?.startsWith('selective'))?.querySelectorAll('button') ?? [])].find((button) => button.textContent === 'Edit')?.click())
    await page.waitForFunction(() => (document.querySelector('#policy-kinds') as HTMLInputElement | null)?.value === 'Pod')
    await page.select('#policy-action', 'Warn')
    await clickButton(page, 'Save')
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].some((row) => row.textContent?.startsWith('selectiveWarn')))
    const after = (await (await api('/api/policies/selective')).json()) as Record<string, unknown>
    expect(after).toMatchObject({ ...stored, action: 'Warn', version: 2 })
    await page.close()
  }, 60_000)

  it('opens the audit of a ruleset evaluation, which has ruleset audits only', async () => {
    const page = await signedIn(service.adminToken)
    await clickLink(page, 'Try it')
    await page.waitForSelector('#try-target option[value="rulesets/pod-security"]')
    await page.select('#try-target', 'rulesets/pod-security')
    await page.type('#try-document', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"json"},"spec":{"containers":[{"name":"a","image":"a:1","securityContext":{"privileged":true}}]}}')
    await page.click('section form button.primary')
    await page.waitForSelector('.verdict p a')
    await page.click('.verdict p a')
    await page.waitForSelector('.remediation')
    // The audit and its remediation load apart: either may be shown first.
    await page.waitForSelector('section > p')
    expect(await text(page, 'section > p')).toMatch(/^pod-security failed on /)
    expect(await text(page, 'pre.document')).toContain('"name": "json"')
    await page.close()
  }, 60_000)

  it('edits a ruleset as YAML, showing the API\'s field error on its line', async () => {
    const page = await signedIn(service.adminToken)
    await clickLink(page, 'Rulesets')
    await clickLink(page, 'pod-security')
    await page.waitForFunction(() => (document.querySelector('#ruleset-yaml')?.textContent ?? '').includes('severity: high'))
    await clickButton(page, 'Edit YAML')
    await page.waitForSelector('#ruleset-yaml-editor')
    const original = await page.$eval('#ruleset-yaml-editor', (area) => (area as HTMLTextAreaElement).value)
    const typo = original.replace('severity: high', 'severty: high')
    expect(typo).not.toBe(original)
    const setText = (value: string) =>
      page.$eval(
        '#ruleset-yaml-editor',
        (area, next) => {
          const textarea = area as HTMLTextAreaElement
          textarea.value = next
          textarea.dispatchEvent(new Event('input', { bubbles: true }))
        },
        value,
      )
    await setText(typo)
    await clickButton(page, 'Save YAML')
    await page.waitForSelector('#yaml-error')
    const line = typo.split('\n').findIndex((entry) => entry.includes('severty')) + 1
    expect(await page.$eval('#yaml-error', (element) => (element as HTMLElement).dataset.line)).toBe(String(line))
    expect(await text(page, '#yaml-error')).toContain(`Line ${line}: invalid request: body.rules[0].severty: unknown field "severty"`)
    // The caret is on that line, selecting it.
    expect(await page.$eval('#ruleset-yaml-editor', (area) => (area as HTMLTextAreaElement).value.slice((area as HTMLTextAreaElement).selectionStart, (area as HTMLTextAreaElement).selectionEnd))).toContain('severty: high')
    await screenshot(page, 'ruleset-yaml-error')
    await setText(original.replace('severity: high', 'severity: critical'))
    await clickButton(page, 'Save YAML')
    await page.waitForSelector('#ruleset-yaml')
    const stored = (await (await api('/api/rulesets/pod-security')).json()) as { version: number; rules: { severity: string }[] }
    expect([stored.version, stored.rules[0]?.severity]).toEqual([2, 'critical'])
    await page.close()
  }, 60_000)

  it('fits a phone-width screen on every page, and is reachable from the keyboard', async () => {
    const page = await signedIn(service.adminToken)
    await page.setViewport({ width: 390, height: 844 })
    for (const label of ['Overview', 'Audits', 'Timeseries', 'Rulesets', 'Policies', 'Exceptions', 'Try it', 'Recommendations', 'Tokens']) {
      await clickLink(page, label)
      await page.waitForFunction((wanted) => document.querySelector('h1')?.textContent === wanted, {}, label)
      await page.waitForNetworkIdle({ idleTime: 150 })
      // Nothing wider than the screen: wide tables scroll within themselves.
      const wider = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !element.parentElement?.closest('table, pre'))
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
      )
      expect([label, wider, await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)]).toEqual([label, [], true])
      if (label === 'Try it') await screenshot(page, 'phone-try-it')
    }
    await page.setViewport({ width: 1280, height: 800 })
    // The first Tab lands on the skip link, which takes the keyboard to the screen's content.
    await page.reload()
    await page.waitForSelector('header.top')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
    // Light and dark: the toggle goes system, light, dark, and the page follows.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await clickButton(page, 'Theme: system')
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light')
    expect(await background()).toBe('rgb(255, 255, 255)')
    await clickButton(page, 'Theme: light')
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    expect(await background()).toBe('rgb(13, 17, 23)')
    await screenshot(page, 'dark-overview')
    await clickButton(page, 'Theme: dark')
    await page.waitForFunction(() => document.documentElement.dataset.theme === undefined)
    // Every control has a name a screen reader can say.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')].filter((control) => {
        const element = control as HTMLInputElement
        return !(element.labels?.length || element.getAttribute('aria-label') || (control.tagName === 'BUTTON' && control.textContent?.trim()))
      }).length,
    )
    expect(unnamed).toBe(0)
    await page.close()
  }, 60_000)

  it('shows a read-only token the actions it may not take, disabled with the scope named', async () => {
    const created = (await (await api('/api/tokens', { method: 'POST', body: JSON.stringify({ name: 'viewer', owner: 'viewer', scopes: ['policies:read', 'rulesets:read', 'audits:read'] }) })).json()) as { secret: string }
    const page = await signedIn(created.secret)
    await clickLink(page, 'Policies')
    await page.waitForFunction(() => document.querySelectorAll('tbody button').length > 0)
    const buttons = await page.$$eval('section button', (elements) => elements.map((button) => ({ text: button.textContent, disabled: (button as HTMLButtonElement).disabled, title: button.title })))
    expect(buttons.filter((button) => /^(Edit|Delete|Create)/.test(button.text ?? ''))).toEqual(
      expect.arrayContaining([
        { text: 'Edit (needs policies:write)', disabled: true, title: 'needs the scope policies:write' },
        { text: 'Delete (needs policies:write)', disabled: true, title: 'needs the scope policies:write' },
        { text: 'Create (needs policies:write)', disabled: true, title: 'needs the scope policies:write' },
      ]),
    )
    await clickLink(page, 'Try it')
    await page.waitForSelector('section form button.primary')
    expect(await page.$eval('section form button.primary', (button) => [(button as HTMLButtonElement).disabled, button.title])).toEqual([true, 'needs the scope eval'])
    await page.close()
  }, 60_000)

  it('creates a token, shows its secret once, and revokes it', async () => {
    const page = await signedIn(service.adminToken)
    await clickLink(page, 'Tokens')
    await page.waitForSelector('#token-name')
    await page.type('#token-name', 'ci-reader')
    await page.click('input[type=checkbox][value="audits:read"]')
    await page.click('form.stacked button.primary')
    await page.waitForSelector('#token-secret')
    const secret = await text(page, '#token-secret')
    const whoami = (await (await api('/api/auth/whoami', {}, secret)).json()) as { scopes: string[] }
    expect(whoami.scopes).toEqual(['audits:read'])
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].some((row) => row.textContent?.includes('ci-reader')))
    await page.evaluate(() => {
      const row = [...document.querySelectorAll('tbody tr')].find((entry) => entry.textContent?.includes('ci-reader'))
      row?.querySelector('button')?.click()
    })
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].some((row) => row.textContent?.includes('ci-reader') && row.textContent.includes('revoked')))
    expect((await api('/api/auth/whoami', {}, secret)).status).toBe(401)
    await clickLink(page, 'Recommendations')
    await page.waitForSelector('#recommendations-title')
    await page.close()
  }, 60_000)

  it('signs the tab out when its token is revoked', async () => {
    const created = (await (await api('/api/tokens', { method: 'POST', body: JSON.stringify({ name: 'short-lived', owner: 'short-lived', scopes: ['admin'] }) })).json()) as { id: string; secret: string }
    const page = await signedIn(created.secret)
    // Revoked once the first screen has loaded, so that it is the next screen's request that is refused.
    await page.waitForNetworkIdle({ idleTime: 150 })
    expect((await api(`/api/tokens/${created.id}`, { method: 'DELETE' })).status).toBe(200)
    await clickLink(page, 'Audits')
    await page.waitForSelector('#token')
    expect(await text(page, '.notice')).toBe('Your token is no longer valid (revoked or expired); sign in again.')
    expect(await page.evaluate(() => sessionStorage.getItem('verdict.token'))).toBeNull()
    await page.close()
  }, 60_000)
})
