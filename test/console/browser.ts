import chromium from '@sparticuz/chromium'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'

/**
 * A real Chromium (the one @sparticuz/chromium ships inside its npm package, unpacked to /tmp on
 * first use), driven by puppeteer-core: what the console's browser tests run.
 */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true, defaultViewport: { width: 1280, height: 800 } })
}

/** A page that records every request it makes, to show the console talks to its own origin only. */
export async function recordingPage(browser: Browser): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage()
  const requests: string[] = []
  page.on('request', (request) => {
    requests.push(request.url())
  })
  return { page, requests }
}

/** `npm run screenshots` sets UPDATE_SCREENSHOTS: the tests then write the README's pictures under docs/console/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOTS) return
  const directory = join(import.meta.dirname, '..', '..', 'docs', 'console')
  mkdirSync(directory, { recursive: true })
  await page.screenshot({ path: join(directory, `${name}.png`) as `${string}.png` })
}
