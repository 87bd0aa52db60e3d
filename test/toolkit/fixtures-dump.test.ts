// An anonymised dump of each sample, loaded into SQLite and served, passes the conformance
// checks (reads and writes) and holds none of the original names, phones, CPFs or e-mails.
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SAMPLES, TEST_KEY } from '../helpers/app.js'
import { openInstallation, openSample, sampleFixture } from '../../src/installation.js'
import { dumpFixture } from '../../src/toolkit/fixtures/dump.js'
import type { Fixture } from '../../src/fixtures/format.js'
import { loadConfig } from '../../src/config.js'
import { createPonte } from '../../src/ponte.js'
import { buildApp } from '../../src/app.js'
import { runConformance } from '../../src/toolkit/conformance/run.js'
import { main } from '../../src/cli.js'

/** Personal values of the original sample: every client name, phone, CPF and e-mail the mapping reads. */
function originals (fixture: Fixture, mapping: string): string[] {
  const client = /client:\n {4}table: (\S+)/.exec(readFileSync(mapping, 'utf8'))?.[1]?.split('.').pop() ?? ''
  const table = fixture.tables.find((x) => x.name.split('.').pop() === client)
  if (!table) throw new Error(`no client table ${client}`)
  const personal = table.columns.map((c, i) => [c.name, i] as const).filter(([n]) => /nome|name|cpf|national|fone|cel|phone|mobile|mail/i.test(n))
  return table.rows.flatMap((r) => personal.map(([, i]) => r[i])).filter((v): v is string => typeof v === 'string' && v.replace(/\W/g, '').length >= 6)
}

for (const mapping of SAMPLES) {
  t.test(`${mapping}: anonymised dump → load → serve → conformance`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ponte-dump-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const source = await openSample(mapping)
    const { fixture } = await dumpFixture(source, { anonymize: true }).finally(() => source.close())
    const text = JSON.stringify(fixture)

    const original = JSON.parse(readFileSync(sampleFixture(mapping), 'utf8')) as Fixture
    const personal = originals(original, mapping)
    t.ok(personal.length > 100, `${personal.length} personal values in the original`)
    const leaked = personal.filter((v) => text.includes(JSON.stringify(v)))
    t.same(leaked.slice(0, 5), [], 'no original name, phone, CPF or e-mail in the dump')
    const digits = new Set(personal.filter((v) => /\d{8}/.test(v.replace(/\D/g, ''))).map((v) => v.replace(/\D/g, '')))
    const dumpDigits = [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1].replace(/\D/g, '')).filter((d) => d.length >= 8)
    t.same(dumpDigits.filter((d) => digits.has(d)).slice(0, 5), [], 'nor any of their phone or CPF digits in another mask')

    // Through the command, as clinic IT would: fixtures load DIR --db sqlite:FILE.
    const fixtureDir = join(dir, 'dump')
    const { mkdirSync, writeFileSync } = await import('node:fs')
    mkdirSync(fixtureDir)
    writeFileSync(join(fixtureDir, 'fixture.json'), text)
    const out = process.stdout.write
    process.stdout.write = (() => true) as typeof process.stdout.write
    const code = await main(['fixtures', 'load', fixtureDir, '--db', `sqlite:${join(dir, 'anon.db')}`]).finally(() => { process.stdout.write = out })
    t.equal(code, 0)

    const inst = await openInstallation(mapping, `sqlite:${join(dir, 'anon.db')}`)
    const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: mapping, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
    const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
    t.teardown(async () => { await app.close(); await inst.close() })
    const results = await runConformance({
      writes: true,
      today: '2026-11-22',
      send: async (method, path, body, headers) => {
        const res = await app.inject({ method, url: path, payload: body as object | undefined, headers: headers ?? { authorization: `Bearer ${TEST_KEY}` } })
        let parsed: any
        try { parsed = res.body === '' ? undefined : JSON.parse(res.body) } catch { parsed = res.body }
        return { status: res.statusCode, body: parsed, contentType: String(res.headers['content-type'] ?? '') }
      }
    })
    t.equal(results.failed, 0, JSON.stringify(results.checks.filter((c) => c.outcome !== 'passed')))
    t.equal(results.skipped, 0)
  })
}

t.test('a range keeps its appointments and the clients they name', async (t) => {
  const source = await openSample(SAMPLES[1])
  t.teardown(() => source.close())
  const all = await dumpFixture(source, { anonymize: false })
  const week = await dumpFixture(source, { from: '2026-11-16', to: '2026-11-22', anonymize: false })
  const count = (f: Fixture, name: string) => f.tables.find((x) => x.name === name)?.rows.length ?? 0
  t.ok(count(week.fixture, 'appointments') > 0 && count(week.fixture, 'appointments') < count(all.fixture, 'appointments') / 10)
  t.ok(count(week.fixture, 'patients') > 0 && count(week.fixture, 'patients') < count(all.fixture, 'patients'))
  t.equal(count(week.fixture, 'doctors'), count(all.fixture, 'doctors'), 'lookups whole')
})
