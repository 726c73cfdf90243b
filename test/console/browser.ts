import chromium from '@sparticuz/chromium'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'

/**
 * A real Chromium (the one @sparticuz/chromium ships inside its npm package, unpacked to /tmp on
 * first use), driven by puppeteer-core: what the console's browser tests run.
 */
export async function launchBrowser(): Promise<Browser> {
  // A language, as every user's browser has: under LANG=C Chromium reports `en-US@posix`, which Intl
  // refuses (uPlot formats its axes with Intl.NumberFormat(navigator.language)).
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: [...chromium.args, '--lang=en-US'],
    env: { ...process.env, LANG: 'en_US.UTF-8' },
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
  })
}

/**
 * A page that records every request it makes, to show the console talks to its own origin only,
 * and every uncaught script error, which a test expects none of (console errors are printed: a
 * refused token's 401 is one, and expected).
 */
export async function recordingPage(browser: Browser): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage()
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (request) => {
    requests.push(request.url())
  })
  page.on('pageerror', (error) => errors.push(`page error: ${error instanceof Error ? error.message : String(error)}`))
  page.on('console', (message) => {
    if (message.type() === 'error' && process.env.VERDICT_TEST_LOGS) console.log(`console error: ${message.text()}`)
  })
  return { page, requests, errors }
}

/** `npm run screenshots` sets UPDATE_SCREENSHOTS: the tests then write the pictures of docs/console.md under docs/console/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOTS) return
  const directory = join(import.meta.dirname, '..', '..', 'docs', 'console')
  mkdirSync(directory, { recursive: true })
  await page.screenshot({ path: join(directory, `${name}.png`) as `${string}.png` })
}

/** The text of the first element the selector finds. */
export function text(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => element.textContent ?? '')
}

/** Presses a button by its text, in the page, once it is enabled. */
export async function clickButton(page: Page, label: string): Promise<void> {
  await page.waitForFunction((wanted) => [...document.querySelectorAll('button')].some((button) => button.textContent?.trim() === wanted && !button.disabled), {}, label)
  await page.evaluate((wanted) => [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === wanted)?.click(), label)
}

/** Follows a link by its text, once it is there. */
export async function clickLink(page: Page, label: string): Promise<void> {
  await page.waitForFunction((wanted) => [...document.querySelectorAll('a')].some((link) => link.textContent?.trim() === wanted), {}, label)
  await page.evaluate((wanted) => [...document.querySelectorAll('a')].find((link) => link.textContent?.trim() === wanted)?.click(), label)
}
