// Issue 13: SQLite built with STAT4 (better-sqlite3 is) plans a statement again at each run
// when a bare parameter meets an indexed column and ANALYZE has left samples, to fit the plan
// to the value bound; on the appointment by id that was half of each request's CPU. Ponte
// writes its SQLite parameters `+@pN` (sql/sqlite/dialect.ts) so each statement keeps the plan
// it was prepared with, whatever is bound, as SQL Server keeps a cached plan.
//
// On a clinic generated here whose data makes the value matter (one client holds almost every
// appointment), the same SQL with bare parameters gets a different plan for each request:
// that is what proves the data exercises STAT4. Ponte's SQL gets one, and still answers right.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { compileMapping } from '../../../../src/mapping/compile/index.js'
import { namedValues, openSqlite } from '../../../../src/sql/sqlite/driver.js'
import { loadConfig } from '../../../../src/config.js'
import { createPonte } from '../../../../src/ponte.js'
import { buildApp } from '../../../../src/app.js'
import type { Database } from '../../../../src/db/database.js'
import type { Statement } from '../../../../src/sql/statement.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../../helpers/scratch-clinic.js'

const KEY = 'planned-once-key-0123456789'
const BUSY_CLIENT = 1
/** One appointment (generated below). */
const RARE_CLIENT = 20_500

/** 20,000 appointments over 2026: 19,000 of them client 1's, about 52 a day. */
function skewedClinic (file: string): void {
  const db = new BetterSqlite3(file)
  db.exec(CLINIC_SQL)
  db.exec('CREATE INDEX IX_CONSULTA_DATA ON TB_CONSULTA (DATA); CREATE INDEX IX_CONSULTA_CLIENTE ON TB_CONSULTA (CLIENTE)')
  const insert = db.prepare("INSERT INTO TB_CONSULTA (DATA, HORA, CLIENTE, MEDICO, LOCAL, SIT, ORIGEM) VALUES (?, ?, ?, 10, 100, 1, 'gen')")
  const day0 = Date.UTC(2026, 0, 1)
  db.transaction(() => {
    for (let i = 0; i < 20_000; i++) {
      const day = new Date(day0 + (i % 365) * 86_400_000).toISOString().slice(0, 10)
      const hour = `${String(7 + (i % 12)).padStart(2, '0')}:${i % 2 === 0 ? '00' : '30'}`
      insert.run(day, hour, i < 19_000 ? BUSY_CLIENT : 1000 + i)
    }
  })()
  db.exec('ANALYZE')
  db.close()
}

t.test('a list statement keeps one plan whatever is bound, on data where the value would change it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-planned-once-'))
  const file = join(dir, 'clinic.db')
  skewedClinic(file)
  const db = openSqlite(file)
  const raw = new BetterSqlite3(file, { readonly: true })
  const sent: { statement: Statement, args: Record<string, unknown> }[] = []
  // A list of several days is streamed (db.stream), one day read whole (db.query).
  const recording = Object.create(db, {
    query: { value: async (statement: Statement, args: Record<string, unknown>, at?: number) => { sent.push({ statement, args }); return await db.query(statement, args, at) } },
    stream: { value: (statement: Statement, args: Record<string, unknown>, at?: number) => { sent.push({ statement, args }); return db.stream!(statement, args, at) } }
  }) as Database
  const compiled = compileMapping(buildModel(parseMapping(CLINIC_MAPPING, 'scratch.yaml')), db.dialect)
  const app = await buildApp(createPonte(loadConfig({ API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' }), recording, compiled), { logLevel: false })
  t.teardown(async () => { await app.close(); await db.close(); raw.close(); rmSync(dir, { recursive: true, force: true }) })
  t.ok((raw.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat4'").get() as { n: number }).n === 1, 'ANALYZE left STAT4 samples')

  const cases = [
    { what: 'the busy client on one day', client: BUSY_CLIENT, start: '2026-06-15', end: '2026-06-15' },
    { what: 'a rare client over 92 days', client: RARE_CLIENT, start: '2026-04-01', end: '2026-07-01' }
  ]
  const plans: string[] = []
  const barePlans: string[] = []
  for (const c of cases) {
    sent.length = 0
    const res = await app.inject({ url: `/appointments?start=${c.start}&end=${c.end}&client=${c.client}`, headers: { 'x-api-key': KEY } })
    t.equal(res.statusCode, 200, c.what, { body: res.body.slice(0, 400) })
    const expected = raw.prepare('SELECT COUNT(*) AS n FROM TB_CONSULTA WHERE CLIENTE = ? AND DATA >= ? AND DATA <= ?').get(c.client, c.start, c.end) as { n: number }
    t.ok(expected.n > 0, `${c.what}: has appointments (${expected.n})`)
    t.equal((JSON.parse(res.body) as unknown[]).length, expected.n, `${c.what}: every appointment of the client in the range, no other`)

    const list = sent.find((s) => s.statement.name.startsWith('appointment.list[client]'))
    if (list === undefined) { t.fail(`${c.what}: the list statement was sent`, { sent: sent.map((s) => s.statement.name) }); continue }
    const bound = namedValues(list.statement, list.args)
    const plan = (sql: string): string => (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(bound) as { detail: string }[]).map((r) => r.detail).join(' | ')
    t.match(list.statement.sql, /"CLIENTE" = \+@p\d+/, 'the client compared with +@pN')
    plans.push(plan(list.statement.sql))
    barePlans.push(plan(list.statement.sql.replace(/\+@p/g, '@p')))
  }
  t.not(barePlans[0], barePlans[1], 'with bare parameters SQLite picks a plan per value on this data', { barePlans })
  t.equal(plans[0], plans[1], 'Ponte\'s statement has one plan for both', { plans })
})
