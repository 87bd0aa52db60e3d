// /docs in a real browser: Debian's headless Chromium (installed by .ci/run) opens the page
// on a listening Ponte, authorises with the API key, runs GET /professionals from the page
// and sees its 200. Skipped only where no Chromium is installed outside CI; in CI (CI=true)
// a missing browser is a failure, never a silent skip.
import t from 'tap'
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { sampleApp, TEST_KEY } from '../../helpers/app.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
  t.test('/docs in a browser', { skip: `no Chromium at ${CHROMIUM} (CI installs it: .ci/run)` }, async () => {})
} else {
  t.test('/docs authorises with the key and runs a request from the page', async (t) => {
    const a = await sampleApp('mappings/clinica-sorriso.yaml')
    t.teardown(() => a.close())
    await a.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (a.app.server.address() as { port: number }).port
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })
    t.teardown(() => browser.close())
    const page = await browser.newPage()
    page.setDefaultTimeout(15_000)
    const seen: number[] = []
    page.on('response', (r) => { if (new URL(r.url()).pathname === '/professionals') seen.push(r.status()) })

    await page.goto(`http://127.0.0.1:${port}/docs/`)
    t.equal(await page.title(), 'Ponte', 'Ponte\'s own title')
    await page.locator('button.authorize').first().click()
    const bearer = page.locator('.modal-ux .auth-container').filter({ hasText: 'bearer' }).first()
    await bearer.locator('input').first().fill(TEST_KEY)
    await bearer.locator('.auth-btn-wrapper button.authorize').click()
    await page.locator('.modal-ux button.btn-done').first().click()

    const op = page.locator('#operations-professionals-listProfessionals')
    await op.locator('.opblock-summary').first().click()
    await op.locator('button.try-out__btn').click()
    await op.locator('button.execute').click()
    const status = op.locator('.live-responses-table .response .response-col_status').first()
    await status.waitFor()
    t.equal((await status.innerText()).trim(), '200', 'the page shows 200')
    t.same(seen, [200], 'the browser made the request, with the key, and got 200')
  })
}
