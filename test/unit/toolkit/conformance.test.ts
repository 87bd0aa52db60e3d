// `ponte conformance` against a real `npm start`, and the same checks in-process against each
// sample; a planted deviation (a range that drops its last day, a detail that differs) fails.
import t from 'tap'
import { spawn, execFile } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { SAMPLES, sampleApp, TEST_KEY, type TestApp } from '../../helpers/app.js'
import { childEnv } from '../../helpers/child-env.js'
import { runConformance } from '../../../src/toolkit/conformance/run.js'
import { ignoredFields, type Send } from '../../../src/toolkit/conformance/http.js'
import { freePort } from '../../helpers/server-process.js'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openInstallation, openSample } from '../../../src/installation.js'
import { buildApp } from '../../../src/app.js'
import { createPonte } from '../../../src/ponte.js'
import { loadConfig } from '../../../src/config.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const run = promisify(execFile)

function injectSender (a: TestApp, edit: (path: string, body: any) => any = (_, b) => b): Send {
  return async (method, path, body, headers) => {
    const res = await a.app.inject({ method, url: path, payload: body as object | undefined, headers: headers ?? { authorization: `Bearer ${TEST_KEY}` } })
    let parsed: any
    try { parsed = res.body === '' ? undefined : JSON.parse(res.body) } catch { parsed = res.body }
    return { status: res.statusCode, body: edit(path, parsed), contentType: String(res.headers['content-type'] ?? ''), ignored: ignoredFields(res.headers['ponte-ignored-fields'] as string | undefined), declared: ignoredFields(res.headers['ponte-ignored-declared'] as string | undefined) }
  }
}

t.test('ponte conformance --writes against npm start: every check passes, exit 0', async (t) => {
  const port = await freePort()
  const server = spawn('npm', ['start'], { cwd: ROOT, env: childEnv({ PORT: String(port), HOST: '127.0.0.1', API_KEYS: TEST_KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' }), stdio: 'ignore', detached: true })
  t.teardown(() => { try { process.kill(-(server.pid as number), 'SIGTERM') } catch {} })
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)
    if (up) break
    await sleep(100)
  }
  const { stdout } = await run(process.execPath, ['bin/ponte.js', 'conformance', '--base', `http://127.0.0.1:${port}`, '--key', TEST_KEY, '--writes'], { cwd: ROOT, env: childEnv() })
  t.match(stdout, /^✓ relation filters agree in both directions$/m)
  t.match(stdout, /^✓ writes: every field of a new client reads back as sent/m)
  t.match(stdout, /^✓ writes: a free slot books with and without each optional ref/m)
  t.match(stdout, /^9 passed, 0 failed, 0 skipped(; accepted and not stored: .*)?$/m)
  const wrong = await run(process.execPath, ['bin/ponte.js', 'conformance', '--base', `http://127.0.0.1:${port}`, '--key', 'not-the-key-0123456789'], { cwd: ROOT, env: childEnv() }).then(() => 0, (e: { code: number, stdout: string }) => e.code)
  t.equal(wrong, 1, 'a wrong key fails the run (exit 1)')
})

for (const mapping of SAMPLES) {
  t.test(`${mapping}: the shared checks pass in-process, and catch planted deviations`, async (t) => {
    const a = await sampleApp(mapping)
    t.teardown(() => a.close())
    const today = '2026-11-22'
    const clean = await runConformance({ send: injectSender(a), writes: true, today })
    t.equal(clean.failed, 0, JSON.stringify(clean.checks.filter((c) => c.outcome !== 'passed')))
    t.equal(clean.skipped, 0, 'nothing skipped on a sample')

    // A server that leaves out the range's last day.
    const open = await runConformance({
      send: injectSender(a, (path, body) => {
        const end = /[?&]end=(\d{4}-\d{2}-\d{2})/.exec(path)?.[1]
        return path.startsWith('/appointments?') && Array.isArray(body) && end ? body.filter((x: any) => x.date !== end) : body
      }),
      writes: false,
      today
    })
    t.match(open.checks.find((c) => c.name.startsWith('appointments: a closed range'))?.failures.join('\n'), /the range is closed/)

    // A server whose details differ from its list.
    const detail = await runConformance({
      send: injectSender(a, (path, body) => /^\/professionals\/[^?]+$/.test(path) && body?.name ? { ...body, name: body.name + ' ' } : body),
      writes: false,
      today
    })
    t.match(detail.checks.find((c) => c.name.startsWith('lookup details'))?.failures[0], /^\/professionals\/\S+ differs from its list item$/)

    // A server that answers 200 and drops a field it was sent.
    const dropped = await runConformance({
      send: injectSender(a, (path, body) => /^\/clients\/[^/?]+$/.test(path) && body?.email !== undefined ? { ...body, email: undefined } : body),
      writes: true,
      today
    })
    t.match(dropped.checks.find((c) => c.name.startsWith('writes: every field'))?.failures.join('\n'), /email read back differs from what was sent/)

    // A booking that reads back with another patient.
    const misplaced = await runConformance({
      send: injectSender(a, (path, body) => /^\/appointments\/[^/?]+$/.test(path) && body?.client ? { ...body, client: { ...body.client, id: 'someone-else' } } : body),
      writes: true,
      today
    })
    t.match(misplaced.checks.find((c) => c.name.startsWith('writes: a free slot'))?.failures.join('\n'), /reads back with client someone-else/)
  })
}

t.test('a pass that stored less than was sent says which fields, per route, beside its count', async (t) => {
  // Clínica Sorriso with the CPF left unmapped and the client's location under write.ignore:
  // every write accepts both and stores neither, and the summary says why each (stranger report
  // TRUST 7 and 8: it called an unmapped cpf write.ignore and left out fields it never sent).
  const sample = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await sample.close() })
  const dir = mkdtempSync(join(tmpdir(), 'ponte-conformance-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const text = readFileSync(new URL('../../../mappings/clinica-sorriso.yaml', import.meta.url), 'utf8')
    .replace('search: [phone, cpf, email, name]', 'search: [phone, email, name]')
    .replace(/\n\s+cpf: \{ column: CPF[^\n]*/, '')
    .replace(/\n\s+cpfFormat: masked/, '')
    .replace('      key: { generate: keyTable, table: dbo.SEQUENCIAL, nameColumn: TABELA, name: PACIENTE, valueColumn: ULTIMO }\n',
      '      key: { generate: keyTable, table: dbo.SEQUENCIAL, nameColumn: TABELA, name: PACIENTE, valueColumn: ULTIMO }\n      ignore: [location]\n')
  t.not(text, readFileSync(new URL('../../../mappings/clinica-sorriso.yaml', import.meta.url), 'utf8'), 'the CPF taken out of the mapping')
  const file = join(dir, 'no-cpf.yaml')
  writeFileSync(file, text)
  const inst = await openInstallation(file, `sqlite:${sample.file}`)
  t.teardown(async () => { await inst.close() })
  const app = await buildApp(createPonte(loadConfig({ API_KEYS: TEST_KEY, MAPPING: file, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' }), inst.db, inst.compiled), { logLevel: false })
  t.teardown(async () => { await app.close() })
  const lines: string[] = []
  const results = await runConformance({ send: injectSender({ app } as unknown as TestApp), writes: true, today: '2026-11-22' }, (l) => lines.push(l))
  t.equal(results.failed, 0, lines.join('\n'))
  t.match(text, /ignore: \[location\]/, 'the location declared ignored')
  t.same(results.ignored, { 'POST /clients': ['cpf', 'healthInsurance', 'location'], 'PATCH /clients/{id}': ['cpf'] }, 'every field the answers named, per route')
  t.match(lines.at(-1), /passed, 0 failed, .*; accepted and not stored: POST \/clients: cpf \(not mapped\), healthInsurance \(not mapped\), location \(write\.ignore\); PATCH \/clients\/\{id\}: cpf \(not mapped\)$/, 'the summary line says each, and why')

  const withAll = await sampleApp('mappings/clinica-sorriso.yaml')
  t.teardown(() => withAll.close())
  const full: string[] = []
  const complete = await runConformance({ send: injectSender(withAll), writes: true, today: '2026-11-22' }, (l) => full.push(l))
  t.same(complete.ignored, { 'POST /clients': ['healthInsurance', 'location'] }, 'only what the sample does not store: a client\'s insurance and location')
  t.match(full.at(-1), /; accepted and not stored: POST \/clients: healthInsurance \(not mapped\), location \(not mapped\)$/)
})
