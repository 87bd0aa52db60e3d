// A server started not ready (STRUCTURAL_CHECK=not-ready, a mapping that does not fit the
// database) is mended the way an operator would: edit the mapping, `kill -HUP`. A mapping
// still broken keeps it not ready with the new places to fix on /ready; a corrected one makes
// it ready and serving, without a restart.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { hup, startServer } from '../../helpers/server-process.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

const KEY = 'reload-not-ready-key-0123456789'
const BAD = CLINIC_MAPPING.replace('end: { column: FIM', 'end: { column: FINAL')
const STILL_BAD = CLINIC_MAPPING.replace('table: TB_MEDICO\n', 'table: TB_MEDICOS\n')
if (BAD === CLINIC_MAPPING || STILL_BAD === CLINIC_MAPPING) throw new Error('the clinic mapping no longer holds the text this test edits')
const lineOf = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1

const dir = mkdtempSync(join(tmpdir(), 'ponte-reload-not-ready-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const db = new BetterSqlite3(join(dir, 'legacy.db'))
db.exec(CLINIC_SQL)
db.close()
const mapping = join(dir, 'mapping.yaml')
writeFileSync(mapping, BAD)

const server = await startServer({
  MAPPING: mapping, DATABASE_URL: `sqlite:${join(dir, 'legacy.db')}`, API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', STRUCTURAL_CHECK: 'not-ready'
})
t.teardown(() => server.stop())

const ready = async (): Promise<{ status: number, findings: { line: number, subject: string, message: string }[] }> => {
  const res = await fetch(server.url('/ready'))
  const body = await res.json() as { findings?: { line: number, subject: string, message: string }[] }
  return { status: res.status, findings: body.findings ?? [] }
}
const professionals = async (): Promise<number> => (await fetch(server.url('/professionals'), { headers: { authorization: `Bearer ${KEY}` } })).status

/** Writes the mapping, sends SIGHUP and waits for the reload's log line. */
async function reloadWith (yaml: string): Promise<{ msg: string, level: number }> {
  writeFileSync(mapping, yaml)
  return await hup(server)
}

t.test('started not ready: /ready names the mistake, routes answer 503', async (t) => {
  const r = await ready()
  t.equal(r.status, 503)
  t.same(r.findings.map((f) => [f.line, f.subject]), [[lineOf(BAD, 'column: FINAL'), 'availability weekly.end']])
  t.equal(await professionals(), 503)
})

t.test('a reload with a mapping still broken: still not ready, with the new mistake', async (t) => {
  const line = await reloadWith(STILL_BAD)
  t.match(line.msg, /^mapping reloaded; it still does not fit the database: not ready/)
  const r = await ready()
  t.equal(r.status, 503)
  t.same(r.findings.map((f) => [f.line, f.subject]), [[lineOf(STILL_BAD, 'table: TB_MEDICOS'), 'professional table']], 'the new mistake, not the old one')
  t.match(r.findings[0]?.message ?? '', /table `TB_MEDICOS` does not exist/)
  t.equal(await professionals(), 503)
})

t.test('a reload with a corrected mapping: ready and serving, without a restart', async (t) => {
  const line = await reloadWith(CLINIC_MAPPING)
  t.match(line.msg, /^mapping reloaded; it fits the database: ready$/)
  t.equal((await ready()).status, 200)
  t.equal(await professionals(), 200)
})

t.test('once ready, a broken mapping keeps the good one serving (as a server started ready does)', async (t) => {
  const line = await reloadWith(BAD)
  t.match(line.msg, /^mapping reload failed; still serving the previous mapping/)
  t.equal((await ready()).status, 200)
  t.equal(await professionals(), 200)
})
