// The value scans of `ponte check` read whole tables, not a window around today: rows planted
// two years away from --today (an unreadable slot, a reversed and a zero-length one, an
// unmapped status, a phone that is no phone) are each counted with an example id, never with
// the value itself; a scan cut short by --scan-seconds says how far it got.
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openInstallation } from '../../../src/installation.js'
import { checkInstallation } from '../../../src/check/index.js'
import { childEnv } from '../../helpers/child-env.js'
import { NORMALISED_MAPPING, normalisedSql, PHONE_TYPE } from '../../helpers/normalised-installation.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const TODAY = '2027-02-01'
const SECRET_PHONE = 'ligar depois das 18h'
const SECRET_DATE = 'sem data marcada'

const dir = mkdtempSync(join(tmpdir(), 'ponte-scans-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const MAPPING = join(dir, 'mapping.yaml')
writeFileSync(MAPPING, NORMALISED_MAPPING)

function database (name: string, planted: string): string {
  const file = join(dir, name)
  const raw = new BetterSqlite3(file)
  raw.exec(normalisedSql())
  raw.exec(planted)
  raw.close()
  return file
}

// Far from TODAY, so a 60-day window would never see them.
const PLANTED = `
INSERT INTO appointmentscheduling_time_slot VALUES
  (90001, 1, '${SECRET_DATE}', '${SECRET_DATE}', 0, 'planted-slot-1'),
  (90002, 1, '2029-06-01 10:00:00', '2029-06-01 09:40:00', 0, 'planted-slot-2'),
  (90003, 1, '2029-06-02 10:00:00', '2029-06-02 10:00:00', 0, 'planted-slot-3');
INSERT INTO appointmentscheduling_appointment VALUES
  (90001, 90001, 3, 1, 'SCHEDULED', 0, 'planted-appt-1', 1, '2028-01-10 09:00:00'),
  (90002, 90002, 3, 1, 'REAGENDADO', 0, 'planted-appt-2', 1, '2028-01-10 09:00:00');
UPDATE person_attribute SET value = '${SECRET_PHONE}' WHERE person_id = 7 AND person_attribute_type_id = ${PHONE_TYPE};
`

async function cli (...args: string[]): Promise<{ code: number | null, out: string, err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', ...args], { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => { out += String(d) })
  child.stderr.on('data', (d) => { err += String(d) })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, out, err }
}

const planted = database('planted.db', PLANTED)
const clean = database('clean.db', '')

t.test('every planted row is found over the whole table, with its count and an example id', async (t) => {
  const r = await cli('-m', MAPPING, '-d', `sqlite:${planted}`, '--today', TODAY, '--scan-seconds', '30')
  t.equal(r.code, 1, r.out + r.err)
  const lines = r.out.split('\n')
  const one = (re: RegExp): void => { t.equal(lines.filter((l) => re.test(l)).length, 1, `once: ${re}`) }
  one(/^✗ \S*mapping\.yaml:\d+:\d+: appointment start\.datetime: 1 of [\d,]+ rows of `appointmentscheduling_appointment` have an unreadable date or hour, e\.g\. id 90001: never listed/)
  one(/^✗ \S*mapping\.yaml:\d+:\d+: appointment state\.map: stored status REAGENDADO is not mapped: 1 rows, e\.g\. id 90002$/)
  one(/^✗ \S*mapping\.yaml:\d+:\d+: availability dated: 1 of [\d,]+ rows of `appointmentscheduling_time_slot` cannot be read \(dates, hours or ids\), e\.g\. id 90001: they offer nothing$/)
  one(/^✗ \S*mapping\.yaml:\d+:\d+: availability dated: 1 row ends before it starts, e\.g\. id 90002: it offers nothing$/)
  one(/^✗ \S*mapping\.yaml:\d+:\d+: availability dated: 1 row ends when it starts \(zero length\), e\.g\. id 90003: it offers nothing$/)
  one(/^! \S*mapping\.yaml:\d+:\d+: client phones\[0\]: 1 client has a phone that cannot be read, e\.g\. id 7: left out of searches/)
  // The planted slot is a slot booking never finds, too (write.slot reads its start).
  one(/^✗ \S*mapping\.yaml:\d+:\d+: appointment start\.datetime: 1 of [\d,]+ slots has a start that cannot be read, e\.g\. slot id 90001: never offered or booked$/)
  t.match(r.out, /check found 6 problems\n$/)
  t.notMatch(r.out + r.err, new RegExp(`${SECRET_PHONE}|${SECRET_DATE}`), 'no stored value is repeated')
})

t.test('the same mapping on the unplanted copy finds none of them', async (t) => {
  const r = await cli('-m', MAPPING, '-d', `sqlite:${clean}`, '--today', TODAY, '--budget', '30')
  t.equal(r.code, 0, r.out)
  t.match(r.out, /^✓ appointment: [\d,]+ rows, all readable$/m, '--budget, the old name, still sets the time')
  t.match(r.out, /^✓ availability dated: [\d,]+ rows, all readable$/m)
  t.notMatch(r.out, /unreadable date|rows of `\w+` cannot be read|before it starts|zero length|phone that cannot be read|not mapped/)
})

t.test('--scan-seconds takes seconds, nothing else', async (t) => {
  const r = await cli('-m', MAPPING, '-d', `sqlite:${clean}`, '--scan-seconds', 'soon')
  t.equal(r.code, 2)
  t.equal(r.err.trim(), 'ponte: --scan-seconds: "soon" is not a number of seconds')
})

t.test('a scan cut short says how far it got; progress names the table and the rows done', async (t) => {
  const inst = await openInstallation(MAPPING, `sqlite:${planted}`, undefined, { structural: 'skip' })
  t.teardown(() => inst.close())
  // A clock that stands still until the appointment scan starts, then moves a second per reading:
  // the scan reads one batch, says how far it is, and finds its time gone.
  let moving = false
  let clock = 1_000_000
  const progress: string[] = []
  const report = await checkInstallation(inst, {
    today: TODAY,
    budgetMs: 3000,
    batchRows: 50,
    progressEveryMs: 1000,
    now: () => moving ? (clock += 1000) : clock,
    progress: (what) => { if (what === 'appointments') moving = true },
    scanProgress: (line) => { progress.push(line) }
  })
  const total = (await inst.db.query({ name: 'n', sql: 'SELECT COUNT(*) AS n FROM appointmentscheduling_appointment WHERE voided = 0', params: [] }))[0].n as number
  const of = `50 of ${total.toLocaleString('en-US')} rows`
  t.same(progress, [`scanning appointments: ${of}`, `appointments: scanned ${of} before the time ran out (--scan-seconds 3); the rest was not checked`])
  t.ok(report.lines.some((l) => l.endsWith(`appointment: scanned ${of} before the time ran out (--scan-seconds 3); the rest was not checked`)), report.lines.join('\n'))
  t.ok(report.lines.some((l) => /^! \S+mapping\.yaml:\d+:\d+: client: not scanned \(the time ran out; raise --scan-seconds\)$/.test(l)), 'the next scan is said not to have run')
})

t.test('small batches (the keyset turning page after page) find what one batch finds', async (t) => {
  const inst = await openInstallation(MAPPING, `sqlite:${planted}`, undefined, { structural: 'skip' })
  t.teardown(() => inst.close())
  const found = async (batchRows: number) => (await checkInstallation(inst, { today: TODAY, batchRows })).findings
    .filter((f) => f.severity !== 'warning' || /cannot be read/.test(f.message)).map((f) => `${f.subject}: ${f.message}`)
  const whole = await found(100_000)
  t.same(await found(7), whole)
  t.ok(whole.some((l) => /e\.g\. id 90001/.test(l)) && whole.some((l) => /rows, all readable|1 of 918 rows/.test(l)), whole.join('\n'))
})
