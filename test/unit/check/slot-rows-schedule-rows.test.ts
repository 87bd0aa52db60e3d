// `ponte check` says of schedule, block and slot rows what the server makes of them (issue 25):
// hours until 00:00 are readable, not reversed; a row is counted as readable only if the
// statement the server reads its source with returns it; a validity bound or an hour that holds
// something unreadable makes its row unreadable (it is no bound); a slot whose start cannot be
// read is never offered. Each planted row is counted, with its id.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { fixtureInstallation } from '../../helpers/fixture-installation.js'
import { NIGHT_MAPPING, nightClinicFixture } from '../../helpers/night-clinic.js'
import { NORMALISED_MAPPING, normalisedSql } from '../../helpers/normalised-installation.js'
import { checkInstallation } from '../../../src/check/index.js'
import { openInstallation } from '../../../src/installation.js'

const TODAY = '2031-03-01'

// On every database: the date filters check asks are the server's own.
for (const dialect of ['sqlite', 'mysql', 'postgres'] as const) {
  t.test(`${dialect}: hours until midnight, and absences whose last day is a sentinel, are readable rows`, async (t) => {
    const { inst } = await fixtureInstallation(t, dialect, nightClinicFixture(), NIGHT_MAPPING)
    const report = await checkInstallation(inst, TODAY)
    const line = (what: string): string => report.lines.find((l) => l.includes(`${what}:`)) ?? ''
    t.equal(line('availability weekly'), '✓ availability weekly: 2 rows, all readable', 'the template row 20:00…00:00 does not end before it starts')
    t.equal(line('availability dated'), '✓ availability dated: 3 rows, all readable', 'nor do the shifts until the next day\'s 00:00')
    t.equal(line('availability blocks[0]'), '✓ availability blocks[0]: 4 rows, all readable', 'absences ending 0000-00-00, blank or 9999-12-31, one until 00:00')
    t.equal(line('availability blocks[1]'), '✓ availability blocks[1]: 1 rows, all readable')
    t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n') || 'check passed')
  })
}

t.test('planted rows the server would drop or misread are counted, each with an id', async (t) => {
  const fixture = nightClinicFixture({
    escala: [[3, 2, 2, '08:00', '12:00', 'indefinido']], // valid until "undefined": no date
    afastamento: [[5, 2, '2031-03-12', '2031-03-12', '14:00', '25:99']], // an end hour no clock has
    feriado: [[2, '2031-04-01']] // a day spelt as text in a column of YYYYMMDD numbers
  })
  const { inst } = await fixtureInstallation(t, 'sqlite', fixture, NIGHT_MAPPING)
  const report = await checkInstallation(inst, TODAY)
  const lines = (what: string): string[] => report.lines.filter((l) => l.includes(`: ${what}:`) || l.startsWith(`✓ ${what}:`))
  t.same(lines('availability weekly').map(strip), ['1 of 3 rows of `escala` cannot be read (dates, hours or ids), e.g. id 3: they offer nothing'])
  t.same(lines('availability blocks[0]').map(strip), ['1 of 5 rows of `afastamento` cannot be read (dates, hours or ids), e.g. id 5: they block nothing'])
  t.same(lines('availability blocks[1]').map(strip), [
    '1 of 2 rows of `feriado` read well but are never returned by the server\'s date filter (it compares the stored dates as the database does: check their `format`), e.g. id 2: they block nothing'
  ], 'the reader reads the text, but SQLite sorts text after every number: the range never returns it')
  t.equal(lines('availability dated')[0], '✓ availability dated: 3 rows, all readable')
  t.notOk(report.ok)
})

t.test('slot-based booking: a slot whose start cannot be read is counted', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-slot-starts-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(file)
  raw.exec(normalisedSql())
  raw.exec("INSERT INTO appointmentscheduling_time_slot VALUES (90001, 1, 'sem data', 'sem data', 0, 'planted-slot-1')")
  raw.close()
  const mapping = join(dir, 'mapping.yaml')
  writeFileSync(mapping, NORMALISED_MAPPING)
  const inst = await openInstallation(mapping, `sqlite:${file}`)
  t.teardown(inst.close)
  const report = await checkInstallation(inst, '2027-02-01')
  const starts = report.lines.filter((l) => / slots? ha(s|ve) .*start/.test(l))
  t.equal(starts.length, 1, 'one line about slot starts')
  t.match(starts[0], /^✗ \S*mapping\.yaml:\d+:\d+: appointment start\.datetime: 1 of [\d,]+ slots has a start that cannot be read, e\.g\. slot id 90001: never offered or booked$/)
})

/** A finding without its mark and place: `✗ file:line:col: what: message` → `message`. */
function strip (line: string): string {
  return line.replace(/^[✓✗!] (\S+:\d+:\d+: )?[^:]+: /, '')
}
