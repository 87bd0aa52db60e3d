// Issues 25/27 (a stranger's Open Dental and OSCAR copies, MyISAM as those systems ship): on a
// vet schema generated here (test/helpers/visit-type-required.ts) whose tables MariaDB keeps as
// MyISAM, with InnoDB as control. `ponte check` never writes a table that cannot roll back: its
// write probe says so by table and engine as a problem, `--no-write-probe` runs no write at all,
// and every table's rows, count and checksum are the same afterwards. The server refuses a write
// that would change such a table (501 naming table and engine, nothing written) until the
// mapping says `write.nonTransactional: accept`; then a booking is stored and read back. The
// engine is the catalogue's: an Aria table counts as MariaDB's ENGINES table says. On SQLite and
// PostgreSQL (every table transactional) the same mapping's probe and writes run as before.
import t from 'tap'
import type { Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DAY, VISIT_TYPE_SCHEMA, visitTypeMapping } from '../helpers/visit-type-required.js'
import { enginesOf, tableStates, withEngines } from '../helpers/table-engines.js'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation, type CheckReport } from '../../src/check/index.js'
import { connect } from '../../src/db/connect.js'

const REFS = '      refs: { service: { otherwise: 4 } }'
const MAPPING = visitTypeMapping(REFS)
const ACCEPTING = visitTypeMapping(`${REFS}\n      nonTransactional: accept`)
// One visit already booked, so state moves and reschedules have a row to work on.
const SCHEMA = `${VISIT_TYPE_SCHEMA}
INSERT INTO visit (visit_id, vet_id, tutor_id, type_id, visit_day, start_hm, end_hm, status) VALUES (1, 1, 1, 3, '${DAY}', '09:00', '09:15', 'w');
`
const ALL = ['tutor', 'vet', 'visit_type', 'vet_week', 'visit']
const engines = (engine: string, tables = ALL): Record<string, string> => Object.fromEntries(tables.map((x) => [x, engine]))

async function checkWith (t: Test, url: string, yaml: string, writeProbe: boolean): Promise<CheckReport> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-check-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'mapping.yaml'), yaml)
  const inst = await openInstallation(join(dir, 'mapping.yaml'), url, undefined, { structural: 'skip' })
  try {
    return await checkInstallation(inst, { today: '2031-03-01', writeProbe, budgetMs: 10_000 })
  } finally {
    await inst.close()
  }
}

const lines = (report: CheckReport, severity: string): string[] => report.findings.filter((f) => f.severity === severity).map((f) => `${f.subject}: ${f.message}`)

const visits = async (s: ServerScratch): Promise<Array<Record<string, any>>> => await s.rows('SELECT visit_id, tutor_id, type_id, start_hm, end_hm, status FROM visit ORDER BY visit_id')

const dialects = testDialects()

if (dialects.includes('mysql')) {
  t.test('mysql: check on MyISAM tables writes nothing and says so by table and engine', async (t) => {
    const s = await scratchOn(t, 'mysql', withEngines(SCHEMA, engines('MyISAM')), MAPPING)
    t.same(await enginesOf(s), engines('MyISAM'), 'MariaDB keeps every table as MyISAM')
    const before = await tableStates(s)
    const report = await checkWith(t, s.url, MAPPING, true)
    t.same(await tableStates(s), before, 'every table: same row count, checksum and rows after the write probe')
    const problems = lines(report, 'problem')
    for (const table of ['visit', 'tutor']) {
      t.ok(problems.some((p) => p.includes(`table \`${table}\` is MyISAM, which cannot roll back`) && p.includes(`ALTER TABLE ${table} ENGINE=InnoDB`) && p.includes('write.nonTransactional: accept')), `a problem names ${table} and MyISAM with what to do: ${problems.join(' | ')}`)
    }
    t.notOk(report.ok, 'check fails')
    t.notOk(lines(report, 'ok').some((l) => /rolled back$/.test(l) && /POST|PATCH/.test(l)), 'no write path claims it was performed and rolled back')
    t.ok(lines(report, 'warning').some((l) => /POST \/appointments .*not performed: it writes table `visit` \(MyISAM\)/.test(l)), 'the booking path says it was not performed, and why')
  })

  t.test('mysql: --no-write-probe changes nothing on MyISAM and on InnoDB', async (t) => {
    for (const engine of ['MyISAM', 'InnoDB']) {
      const s = await scratchOn(t, 'mysql', withEngines(SCHEMA, engines(engine)), MAPPING)
      const before = await tableStates(s)
      const report = await checkWith(t, s.url, MAPPING, false)
      t.same(await tableStates(s), before, `${engine}: every table's count, checksum and rows unchanged`)
      t.notOk(lines(report, 'problem').some((p) => /stored status x is not mapped/.test(p)), `${engine}: check finds no leftovers of its own`)
      t.ok(lines(report, 'ok').some((l) => /statements ran \(reads only: \d+ write statements not run, --no-write-probe\)/.test(l)), `${engine}: the statement run says it ran reads only`)
    }
  })

  t.test('mysql: InnoDB as control: the write probe performs every path and leaves every table as it was', async (t) => {
    const s = await scratchOn(t, 'mysql', withEngines(SCHEMA, engines('InnoDB')), MAPPING)
    const before = await tableStates(s)
    const report = await checkOf(t, s.url, MAPPING)
    t.same(await tableStates(s), before, 'unchanged')
    t.same(lines(report, 'problem'), [], 'no problem')
    t.ok(lines(report, 'ok').some((l) => /POST \/appointments with every ref: .*rolled back$/.test(l)), 'the booking path was performed')
  })

  t.test('mysql: the server refuses writes to a MyISAM table without the key, naming table and engine; with it a booking is stored', async (t) => {
    // The visits MyISAM, the tutors InnoDB: only writes that would change a MyISAM table are refused.
    const schema = withEngines(SCHEMA, { visit: 'MyISAM', visit_type: 'MyISAM' })
    const s = await scratchOn(t, 'mysql', schema, MAPPING)
    const before = await tableStates(s)
    const booking = await s.call('POST', '/appointments', { date: DAY, hour: '10:15', client: '2', professional: '1' })
    t.equal(booking.status, 501, JSON.stringify(booking.body))
    t.match(booking.body.detail, /table visit, whose engine \(MyISAM\) cannot roll back/)
    t.match(booking.body.detail, /nothing was written/)
    t.same(booking.body.errors?.map((e: { path: string }) => e.path), ['/body'])
    const state = await s.call('PATCH', '/appointments/1/state', { state: 'CONFIRMED' })
    t.equal(state.status, 501, JSON.stringify(state.body))
    t.match(state.body.detail, /table visit, whose engine \(MyISAM\)/)
    const moved = await s.call('PATCH', '/appointments/1/time', { date: DAY, hour: '11:00' })
    t.equal(moved.status, 501, JSON.stringify(moved.body))
    t.same(await tableStates(s), before, 'every table unchanged after the three refusals')

    const client = await s.call('POST', '/clients', { name: 'Carla Dias', phone: '+5511987650003' })
    t.equal(client.status, 200, `a write of an InnoDB table only still runs: ${JSON.stringify(client.body)}`)
    t.same(await s.rows(`SELECT tutor_name FROM tutor WHERE tutor_id = ${Number(client.body.id)}`), [{ tutor_name: 'Carla Dias' }], 'read back from the table')

    const a = await scratchOn(t, 'mysql', schema, ACCEPTING)
    const accepted = await a.call('POST', '/appointments', { date: DAY, hour: '10:15', client: '2', professional: '1' })
    t.equal(accepted.status, 200, JSON.stringify(accepted.body))
    t.same((await visits(a)).slice(-1), [{ visit_id: Number(accepted.body.id), tutor_id: 2, type_id: 4, start_hm: '10:15', end_hm: '11:00', status: 'w' }], 'stored, read back from the table')
    const read = await a.call('GET', `/appointments/${accepted.body.id as string}`)
    t.equal(read.body.hour, '10:15', 'and through Ponte')
    const confirmed = await a.call('PATCH', '/appointments/1/state', { state: 'CONFIRMED' })
    t.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    t.same((await visits(a))[0], { visit_id: 1, tutor_id: 1, type_id: 3, start_hm: '09:00', end_hm: '09:15', status: 'c' }, 'the state move stored')

    // check with the key: still writes nothing there, and says the paths are not proven rather than failing.
    const stateBefore = await tableStates(a)
    const report = await checkWith(t, a.url, ACCEPTING, true)
    t.same(await tableStates(a), stateBefore, 'check with the key wrote nothing either')
    t.ok(lines(report, 'warning').some((l) => l.includes('table `visit` is MyISAM') && l.includes('not proven')), 'the accepted table is a warning that its writes are not proven')
    t.notOk(lines(report, 'problem').some((l) => l.includes('MyISAM')), 'and no problem')
  })

  t.test('mysql: with the key, a write refused after its read-back says what stays written on MyISAM, as it does', async (t) => {
    // CONFIRMED written as the cancelled code: the read-back refuses it (defect 16's mistake).
    const wrong = visitTypeMapping(`${REFS}\n      nonTransactional: accept\n      states: { CONFIRMED: { status: { value: x } } }`)
    const s = await scratchOn(t, 'mysql', withEngines(SCHEMA, { visit: 'MyISAM' }), wrong)
    const refused = await s.call('PATCH', '/appointments/1/state', { state: 'CONFIRMED' })
    t.equal(refused.status, 501, JSON.stringify(refused.body))
    t.match(refused.body.detail, /what it wrote to visit \(MyISAM\) stays written/, 'the 501 does not claim nothing was written')
    t.notMatch(refused.body.detail, /nothing was written/)
    t.equal((await visits(s))[0]?.status, 'x', 'and it did stay: the engine cannot roll back (what the key accepts)')
    const innodb = await scratchOn(t, 'mysql', withEngines(SCHEMA, { visit: 'InnoDB' }), wrong)
    const undone = await innodb.call('PATCH', '/appointments/1/state', { state: 'CONFIRMED' })
    t.equal(undone.status, 501)
    t.match(undone.body.detail, /nothing was written/, 'on InnoDB the same 501 is rolled back')
    t.equal((await visits(innodb))[0]?.status, 'w', 'and nothing changed')
  })

  t.test('mysql: an engine counts as transactional only as MariaDB\'s ENGINES table says (Aria TRANSACTIONAL=1 included)', async (t) => {
    const s = await scratchOn(t, 'mysql', `${withEngines(SCHEMA, { visit: 'MyISAM', tutor: 'InnoDB' })}
CREATE TABLE crash_safe (id INTEGER PRIMARY KEY) ENGINE=Aria TRANSACTIONAL=1;
`, MAPPING)
    const said = Object.fromEntries((await s.rows("SELECT ENGINE AS e, TRANSACTIONS AS tx FROM information_schema.ENGINES WHERE ENGINE IN ('InnoDB', 'MyISAM', 'Aria')")).map((r) => [r.e, r.tx === 'YES']))
    const db = await connect(s.url)
    t.teardown(async () => { await db.close() })
    const catalog = await db.introspect.catalog()
    t.same(catalog.table('tutor')?.engine, { name: 'InnoDB', transactional: true })
    t.same(catalog.table('visit')?.engine, { name: 'MyISAM', transactional: false })
    t.same(catalog.table('crash_safe')?.engine, { name: 'Aria', transactional: said.Aria }, `Aria as MariaDB says (TRANSACTIONS ${String(said.Aria)})`)
  })
}

for (const dialect of dialects.filter((d) => d !== 'mysql')) {
  t.test(`${dialect}: every table is transactional: the probe performs the writes and the server writes without the key`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const db = await connect(s.url)
    t.teardown(async () => { await db.close() })
    t.same((await db.introspect.catalog()).tables.filter((x) => x.engine !== undefined).map((x) => x.name), [], 'the catalogue names no engine')
    const report = await checkOf(t, s.url, MAPPING)
    t.same(lines(report, 'problem'), [], 'check finds no problem')
    t.ok(lines(report, 'ok').some((l) => /POST \/appointments with every ref: .*rolled back$/.test(l)), 'the booking path was performed')
    t.same(await visits(s), [{ visit_id: 1, tutor_id: 1, type_id: 3, start_hm: '09:00', end_hm: '09:15', status: 'w' }], 'and rolled back')
    const quiet = await checkWith(t, s.url, MAPPING, false)
    t.same(lines(quiet, 'problem'), [], '--no-write-probe: no problem')
    t.equal((await s.rows('SELECT COUNT(*) AS n FROM tutor'))[0].n.toString(), '2', '--no-write-probe: no tutor added')
    const booking = await s.call('POST', '/appointments', { date: DAY, hour: '10:15', client: '2', professional: '1' })
    t.equal(booking.status, 200, JSON.stringify(booking.body))
    t.equal((await visits(s)).length, 2, 'stored')
  })
}
