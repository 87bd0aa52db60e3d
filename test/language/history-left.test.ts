// `write.history.left`: a row for what a change leaves behind, on schemas generated here, on
// every test database. An OpenMRS-like status history (an enum status, `end_date` NOT NULL)
// takes, on each state change, the status left, when it began (`date_changed`, else
// `date_created`) and now; an OSCAR-like archive takes the whole appointment row as it was
// before each state change and reschedule. Every row is read back by SQL and compared, column
// by column, with what it must hold; `ponte check` performs the same moves, rolled back.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkInstallation } from '../../src/check/index.js'
import { tableContents } from '../helpers/table-contents.js'
import { nowIn } from '../../src/normalise/datetime.js'
import { DATETIME, IDENTITY } from '../helpers/openmrs-like.js'
import { DAY as SLOTS_DAY, mapping as openSlotsMapping, schema as openSlotsSchema } from '../helpers/open-slots-installation.js'
import { COPIED, DAY, MAPPED, OSCAR, RULED, USER, ZONE, openmrsSchema, oscarSchema } from '../helpers/history-left-installation.js'

/** 'YYYY-MM-DD HH:MM:SS' from whatever the driver read (text, or a Date of that wall clock). */
const wall = (v: unknown): string => v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v).slice(0, 19).replace('T', ' ')

/** Within a minute of the clinic's clock now. */
function isNow (t: Test, v: unknown, what: string, zone = ZONE): void {
  const gap = Math.abs(Date.parse(`${wall(v).replace(' ', 'T')}Z`) - Date.parse(`${nowIn(zone).datetime.replace(' ', 'T')}Z`))
  t.ok(gap < 60_000, `${what} is now on the clinic's clock (${wall(v)})`)
}

const history = async (s: ServerScratch, id: number): Promise<Array<Record<string, any>>> =>
  await s.rows(`SELECT appointment_id, status, start_date, end_date FROM appt_status_history WHERE appointment_id = ${id} ORDER BY appointment_status_history_id`)

async function move (t: Test, s: ServerScratch, id: number, state: string): Promise<void> {
  const res = await s.call('PATCH', `/appointments/${id}/state`, { state })
  t.equal(res.status, 200, `PATCH ${id} → ${state}: ${JSON.stringify(res.body)}`)
}

async function provesChecked (t: Test, s: ServerScratch): Promise<void> {
  const before = await tableContents(s.installation.db)
  const report = await checkInstallation(s.installation, { budgetMs: 2000 })
  t.notOk(report.findings.some((f) => f.severity === 'problem'), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
  const moves = report.findings.filter((f) => /^PATCH …\/state \w+: /.test(f.message) && f.severity === 'ok')
  t.ok(moves.length > 0 && moves.every((f) => /the row it leaves \(\w+\) added to the history as mapped/.test(f.message)), `each move's history row compared: ${moves.map((f) => f.message).join(' | ')}`)
  t.same(await tableContents(s.installation.db), before, 'rolled back')
}

for (const dialect of testDialects()) {
  for (const [form, mapping] of [['a state map', MAPPED], ['state rules and codes', RULED]] as const) {
    t.test(`an OpenMRS-like status history, ${form} [${dialect}]`, async (t) => {
      const s = await scratchOn(t, dialect, openmrsSchema(dialect), mapping)

      t.test('a state change adds the status left, from when it began until now', async (t) => {
        await move(t, s, 1, 'CANCELED')
        const [row, more] = await history(s, 1)
        t.equal(more, undefined, 'one row')
        t.equal(Number(row.appointment_id), 1)
        t.equal(row.status, 'SCHEDULED', 'the status left')
        t.equal(wall(row.start_date), '2020-01-01 08:00:00', 'began when the appointment was created (never changed)')
        isNow(t, row.end_date, 'end_date')
        const [appt] = await s.rows('SELECT status, changed_by, date_changed FROM appt WHERE appointment_id = 1')
        t.equal(appt.status, 'CANCELLED', 'the appointment holds the status entered')
        t.equal(Number(appt.changed_by), USER)
        isNow(t, appt.date_changed, 'the appointment\'s date_changed')

        await move(t, s, 2, 'DONE')
        const [done] = await history(s, 2)
        t.same([done.status, wall(done.start_date)], ['WAITING', '2020-02-02 09:30:00'], 'a checked-in appointment leaves WAITING, begun at its last change')
        isNow(t, done.end_date, 'end_date')
        t.same(await history(s, 3), [], 'nothing for an appointment that did not change')
      })

      t.test('a second change leaves the state the first entered, begun at the first', async (t) => {
        const [before] = await s.rows('SELECT date_changed FROM appt WHERE appointment_id = 1')
        await move(t, s, 1, 'WAITING')
        const rows = await history(s, 1)
        t.equal(rows.length, 2)
        t.same([rows[1].status, wall(rows[1].start_date)], ['CANCELLED', wall(before.date_changed)], 'CANCELLED, from the cancellation')
        isNow(t, rows[1].end_date, 'end_date')
      })

      t.test('a reschedule that keeps the state and a booking add none', async (t) => {
        const moved = await s.call('PATCH', '/appointments/3/time', { date: DAY, hour: '10:00' })
        t.equal(moved.status, 200, JSON.stringify(moved.body))
        t.same(await history(s, 3), [], 'on: [state] (the default) writes no row for a reschedule into the same state')
        const booked = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '2', professional: '7' })
        t.equal(booked.status, 200, JSON.stringify(booked.body))
        t.same(await history(s, Number(booked.body.id)), [], 'a booking leaves nothing behind')
      })

      t.test('check moves into every state and compares the row left, rolled back', async (t) => {
        await provesChecked(t, s)
      })
    })
  }

  t.test(`an OSCAR-like archive: the row as it was, before each state change and reschedule [${dialect}]`, async (t) => {
    const s = await scratchOn(t, dialect, oscarSchema(dialect), OSCAR)
    const archived = async (): Promise<Array<Record<string, any>>> => await s.rows(`SELECT appointment_no, ${COPIED.join(', ')} FROM appointment_archive ORDER BY id`)
    const asStored = async (): Promise<Record<string, any>> => (await s.rows(`SELECT appointment_no, ${COPIED.join(', ')} FROM appointment WHERE appointment_no = 10`))[0]

    const first = await asStored()
    await move(t, s, 10, 'CONFIRMED')
    const [confirmed] = await s.rows('SELECT status, lastupdateuser, updatedatetime FROM appointment WHERE appointment_no = 10')
    t.same([confirmed.status.trim(), confirmed.lastupdateuser], ['a', '999998'], 'the appointment is confirmed and stamped')
    isNow(t, confirmed.updatedatetime, 'updatedatetime', 'America/Toronto')
    t.same(await archived(), [first], 'the archive holds the row as it was before the confirmation, every column')

    const second = await asStored()
    const moved = await s.call('PATCH', '/appointments/10/time', { date: DAY, hour: '10:30' })
    t.equal(moved.status, 200, JSON.stringify(moved.body))
    t.same(await archived(), [first, second], 'a reschedule archives the row as the confirmation left it (on: [state, reschedule])')
    t.notSame(second.start_time, (await asStored()).start_time, 'the appointment moved')

    const booked = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '1', professional: '101' })
    t.equal(booked.status, 200, JSON.stringify(booked.body))
    t.equal((await archived()).length, 2, 'a booking archives nothing, and appointment 11 never changed')

    await provesChecked(t, s)
    const report = await checkInstallation(s.installation, { budgetMs: 2000 })
    t.ok(report.findings.some((f) => f.severity === 'ok' && /^PATCH …\/time: .*the row as it was added to the history as mapped/.test(f.message)), 'check compares the row a reschedule archives')
  })
  t.test(`check: a copy from no column, into a number column, into a shorter text [${dialect}]`, async (t) => {
    const schema = oscarSchema(dialect).replace(/(CREATE TABLE appointment_archive .*?)updatedatetime \S+, lastupdateuser VARCHAR\(6\)/s, '$1updatedatetime INTEGER, lastupdateuser VARCHAR(3)')
    t.match(schema, /appointment_archive .*updatedatetime INTEGER, lastupdateuser VARCHAR\(3\)/s, 'the archive\'s columns differ from the appointment\'s')
    const mapping = OSCAR.replace('notes: { before: notes }', 'notes: { before: note }')
    const s = await scratchOn(t, dialect, schema, mapping)
    const report = await checkInstallation(s.installation, { budgetMs: 2000 })
    const at = (column: string, severity: string): Array<{ message: string, line?: number }> => report.findings.filter((f) => f.severity === severity && f.path === `/resources/appointment/write/history/left/${column}/before`)
    const lineOf = (text: string): number => mapping.split('\n').findIndex((l) => l.includes(text)) + 1
    t.match(at('notes', 'problem')[0]?.message, /column `note` does not exist in table `appointment`/, 'a column the appointment lacks, at its copy')
    t.equal(at('notes', 'problem')[0]?.line, lineOf('notes: { before: note }'))
    t.match(at('updatedatetime', 'problem')[0]?.message, /`appointment.updatedatetime` \(.*\) is copied into `appointment_archive.updatedatetime` \(.*\) but that column holds numbers: every change writing the row would be refused/)
    t.match(at('lastupdateuser', 'warning')[0]?.message, /is copied into `appointment_archive.lastupdateuser` \(.*\) which holds at most 3 characters/)
  })
  for (const onCancel of ['release', 'reopen']) {
    t.test(`open slots (onCancel: ${onCancel}): a cancellation and a move between slots leave the claimed row as it was [${dialect}]`, async (t) => {
      const log = `CREATE TABLE gh_appointment_log (id ${IDENTITY[dialect]}, appointment INTEGER NOT NULL, patient INTEGER, appointment_date ${DATETIME[dialect]}, state VARCHAR(20), left_at ${DATETIME[dialect]} NOT NULL);`
      const mapping = openSlotsMapping(onCancel).replace('      key: { generate: max }\n', `      key: { generate: max }
      history:
        table: gh_appointment_log
        key: appointment
        on: [state, reschedule]
        left:
          patient: { before: patient }
          appointment_date: { before: appointment_date }
          state: { before: state }
          left_at: { now: datetime }
`)
      const s = await scratchOn(t, dialect, `${openSlotsSchema(dialect)}\n${log}`, mapping)
      const logged = async (): Promise<unknown[]> => (await s.rows('SELECT appointment, patient, appointment_date, state FROM gh_appointment_log ORDER BY id')).map((r) => [Number(r.appointment), Number(r.patient), wall(r.appointment_date), r.state])

      await move(t, s, 6, 'CANCELED')
      t.same(await logged(), [[6, 1, `${SLOTS_DAY} 08:30:00`, 'confirmed']], 'the cancelled appointment as it was')

      const booked = await s.call('POST', '/appointments', { date: SLOTS_DAY, hour: '09:00', client: '3', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal((await logged()).length, 1, 'a claim leaves nothing behind')
      const moved = await s.call('PATCH', `/appointments/${String(booked.body.id)}/time`, { date: SLOTS_DAY, hour: '09:30' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.same((await logged())[1], [Number(booked.body.id), 3, `${SLOTS_DAY} 09:00:00`, 'confirmed'], 'the row the move leaves, as it was claimed')
      t.equal((await logged()).length, 2, 'one row for the move')
    })
  }
}
