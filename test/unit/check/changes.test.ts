// Issue 28: `ponte check` on `changes` says what a poll costs on this database (the window's
// appointments counted, the statement, the index its range needs, rows a minute), and whether
// a declared marker moves when the desk updates a row — on every test database.
import t, { type Test } from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'
import type { CheckReport } from '../../../src/check/index.js'
import { markerMapping, markerSchema, today } from '../../helpers/marker-clinic.js'

const at = (r: CheckReport, tail: string): string[] => r.findings.filter((f) => f.path.endsWith(tail)).map((f) => `${f.severity}: ${f.message}`)
const createIndex = (lines: string[]): string | undefined => lines.join('\n').match(/create one: (CREATE INDEX .*)$/m)?.[1]

async function cost (t: Test, dialect: Parameters<typeof scratchOn>[1]): Promise<void> {
  const s = await scratchOn(t, dialect, markerSchema(dialect, 100), markerMapping('window: { daysBefore: 1, daysAfter: 30 }\npollSeconds: 0.1\n'), { pollChanges: false })
  let report = await checkOf(t, s.url, markerMapping('window: { daysBefore: 1, daysAfter: 30 }\npollSeconds: 0.1\n'), today)
  let said = at(report, '/appointment/changes')
  t.match(said.join('\n'), /ok: one window pass reads 103 appointments today .* with `appointment\.list\[\]`, every 0\.1 s/, 'the window counted today, and the statement named')
  t.match(said.join('\n'), /warning: polling reads about 61,800 rows a minute \(more than 50,000\): raise `pollSeconds` to 1 or more/, 'too many rows a minute: what to change')
  const create = createIndex(said)
  t.ok(create, 'no index on the start date: the index to create is printed')
  await s.rows(create as string)
  report = await checkOf(t, s.url, markerMapping('window: { daysBefore: 1, daysAfter: 30 }\npollSeconds: 2\n'), today)
  said = at(report, '/appointment/changes')
  t.same(said.filter((l) => l.startsWith('warning')), [], 'the printed index silences it, and a slower poll the load')
  t.match(said.join('\n'), /its range served by an index/)
  t.same(report.findings.filter((f) => f.severity === 'problem' && f.path.includes('/appointment')), [], 'nothing wrong with the appointments')
}

async function marker (t: Test, dialect: Parameters<typeof scratchOn>[1]): Promise<void> {
  const moving = markerMapping('pollSeconds: 5\nmarker: { column: touched }\n')
  const s = await scratchOn(t, dialect, markerSchema(dialect), moving, { pollChanges: false })
  let report = await checkOf(t, s.url, moving, today)
  const said = at(report, '/changes/marker')
  t.match(said.join('\n'), /ok: marker column `touched` moves when an appointment is updated/, 'a column the database sets on update moves')
  const create = createIndex(said)
  t.ok(create, 'the marker column without an index: its index printed')
  await s.rows(create as string)
  report = await checkOf(t, s.url, moving, today)
  t.same(at(report, '/changes/marker').filter((l) => l.startsWith('warning')), [], 'and silenced by it')
  const stale = markerMapping('pollSeconds: 5\nmarker: { column: stale }\n')
  report = await checkOf(t, s.url, stale, today)
  t.match(at(report, '/changes/marker').join('\n'), /warning: marker column `stale` did not change when an appointment's state was updated/, 'a plain column nobody maintains is warned about at the marker')
  t.same(await s.rows('SELECT st FROM visit WHERE vid = 3'), [{ st: 'C' }], 'the update was rolled back')
  const off = markerMapping('pollSeconds: 5\nmarker: { column: nowhere }\n')
  report = await checkOf(t, s.url, off, today)
  t.notOk(report.ok, 'a marker column that does not exist fails check')
  t.match(report.lines.join('\n'), /nowhere/, 'naming it')
}

async function broken (t: Test): Promise<void> {
  const s = await scratchOn(t, 'sqlite', markerSchema('sqlite'), markerMapping('pollSeconds: 5\n'), { pollChanges: false })
  await s.rows('ALTER TABLE visit RENAME COLUMN at_hour TO at_time')
  const report = await checkOf(t, s.url, markerMapping('pollSeconds: 5\n'), today)
  t.notOk(report.ok, 'a list query that cannot run fails check')
  t.match(at(report, '/appointment/changes').join('\n'), /problem: the window cannot be read/, 'and change detection says why no poll would run')
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: what a poll costs, and its index`, async (t) => { await cost(t, dialect) })
  t.test(`${dialect}: a marker that moves on update, and one that does not`, async (t) => { await marker(t, dialect) })
}
t.test('a window that cannot be read', broken)
