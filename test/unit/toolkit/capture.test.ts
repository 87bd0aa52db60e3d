// Capture and replay: a run recorded through the capture plugin, replayed against the same
// version, shows no difference; against a mapping with one field changed, exactly that field.
// The capture holds no key and none of the patients' names, phones or CPFs.
import t from 'tap'
import Fastify from 'fastify'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sampleApp, TEST_KEY, type TestApp } from '../../helpers/app.js'
import capture from '../../../src/toolkit/capture/plugin.js'
import { replay } from '../../../src/toolkit/capture/replay.js'
import { ignoredFields, type Send } from '../../../src/toolkit/conformance/http.js'
import { runConformance } from '../../../src/toolkit/conformance/run.js'

function sender (a: { inject: TestApp['app']['inject'] }): Send {
  return async (method, path, body, headers) => {
    const res = await a.inject({ method, url: path, payload: body as object | undefined, headers: headers ?? { authorization: `Bearer ${TEST_KEY}` } })
    let parsed: any
    try { parsed = res.body === '' ? undefined : JSON.parse(res.body) } catch { parsed = res.body }
    return { status: res.statusCode, body: parsed, contentType: String(res.headers['content-type'] ?? ''), ignored: ignoredFields(res.headers['ponte-ignored-fields'] as string | undefined) }
  }
}

/** Ponte behind a fastify that carries the capture plugin, as app.ts registers it. */
async function captured (t: { teardown: (fn: () => unknown) => void }, dir: string, mapping: string) {
  const ponte = await sampleApp(mapping)
  const front = Fastify()
  await front.register(capture, { dir })
  front.all('/*', async (request, reply) => {
    const res = await ponte.app.inject({ method: request.method as 'GET', url: request.url, payload: request.body as object | undefined, headers: { authorization: String(request.headers.authorization ?? '') } })
    reply.status(res.statusCode).header('content-type', String(res.headers['content-type'] ?? 'text/plain')).send(res.body)
  })
  await front.ready()
  t.teardown(async () => { await front.close(); await ponte.close() })
  return front
}

t.test('record a conformance run, replay it against the same version and a changed mapping', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-capture-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const front = await captured(t, dir, 'mappings/northwind-health.yaml')
  const run = await runConformance({ send: sender(front), writes: true, today: '2026-11-22' })
  t.equal(run.failed, 0)
  // A search by a real phone: recorded without the term.
  const someone = (await sender(front)('GET', '/clients?limit=1')).body[0]
  await sender(front)('GET', `/clients/search?term=${encodeURIComponent(someone.phone)}`)
  await front.close()

  const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
  const lines = text.split('\n').filter(Boolean)
  t.ok(lines.length > 50, `${lines.length} exchanges recorded`)
  t.notOk(text.includes(TEST_KEY), 'no API key')
  t.notOk(text.includes(someone.name), 'no patient name')
  t.notOk(text.includes(someone.phone.replace('+', '')), 'no patient phone')
  t.notOk(text.includes('Conformance Probe'), 'the name the caller sent is replaced too')

  // Same version, fresh copy: nothing differs.
  const same = await sampleApp('mappings/northwind-health.yaml')
  t.teardown(() => same.close())
  const output: string[] = []
  const r1 = await replay(dir, sender(same.app), (l) => output.push(l))
  t.equal(r1.different, 0, output.join('\n'))
  t.ok(r1.skipped >= 1, 'searches with a hidden term are not replayed')
  t.equal(r1.same, r1.requests - r1.skipped)

  // One field mapped differently: exactly that field differs, and nothing else.
  const changedDir = mkdtempSync(join(tmpdir(), 'ponte-changed-'))
  t.teardown(() => rmSync(changedDir, { recursive: true, force: true }))
  const changed = join(changedDir, 'northwind-health.yaml')
  writeFileSync(changed, readFileSync('mappings/northwind-health.yaml', 'utf8').replace('$schema: ../mapping.schema.json\n', '').replace('      expertise: title\n', ''))
  const other = await sampleApp(changed)
  t.teardown(() => other.close())
  const out2: string[] = []
  const r2 = await replay(dir, sender(other.app), (l) => out2.push(l))
  t.ok(r2.different > 0, 'differences found')
  const paths = new Set(r2.differences.flatMap((d) => d.paths.map((p) => p.path.replace(/\[\d+\]/g, '[]'))))
  t.same([...paths].filter((p) => !/(^|\.)expertise$/.test(p)), [], `only expertise differs: ${[...paths].join(', ')}`)
  t.match(out2.join('\n'), /^✗ #\d+ GET \/professionals/m)
  t.match(out2.join('\n'), /^ {4}(\[\d+\]\.)?expertise: ".*" → \(absent\)$/m)
})
