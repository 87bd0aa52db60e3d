// Issue 27, a reschedule between open slots keeps the appointment's id (the caller keeps using
// it: the answer is a text it ignores). On a schema generated here, unlike the GNU-Health-like
// one (date and hour apart, a length in minutes, a room, one-letter codes, a note, a reschedule
// flag and a text stamp), on every test database: the appointment's row and the free row swap
// times, read back from the table and through Ponte; two moves into one free row race to one
// 200 and one 409; a time no free row starts at is a 409 that changes nothing; and the swap's
// UPDATEs, driven directly, change nothing on a row that is no longer what they expect.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { connect } from '../../src/db/connect.js'
import type { Querier } from '../../src/db/database.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { addDays } from '../../src/normalise/datetime.js'

const DAY = '2032-06-08'

// Free rows of Dr. 1: 09:00 (30 min, room 1), 10:00 (20 min, room 1), 11:00 (30 min, no
// room); Dr. 2: 09:00. Row 5 is Dr. 1's appointment at 08:00, row 6 a cancelled one at 12:00.
const SCHEMA = `
CREATE TABLE cliente (cid INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL, fone VARCHAR(20));
CREATE TABLE medico (mid INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL);
CREATE TABLE sala (sid INTEGER PRIMARY KEY, nome VARCHAR(30) NOT NULL);
CREATE TABLE vaga (vid INTEGER PRIMARY KEY, data DATE NOT NULL, hora VARCHAR(5) NOT NULL, minutos INTEGER NOT NULL, mid INTEGER NOT NULL, sala INTEGER, cid INTEGER, situacao CHAR(1) NOT NULL, obs VARCHAR(80), remarcada INTEGER, alterado VARCHAR(19));
INSERT INTO cliente (cid, nome, fone) VALUES (1, 'Rita Nunes', '11987651001');
INSERT INTO cliente (cid, nome, fone) VALUES (2, 'Saulo Vaz', '11987651002');
INSERT INTO cliente (cid, nome, fone) VALUES (3, 'Tania Reis', '11987651003');
INSERT INTO medico (mid, nome) VALUES (1, 'Dra. Um');
INSERT INTO medico (mid, nome) VALUES (2, 'Dr. Dois');
INSERT INTO sala (sid, nome) VALUES (1, 'Sala A');
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (1, '${DAY}', '09:00', 30, 1, 1, NULL, 'L', 'vaga da manha');
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (2, '${DAY}', '10:00', 20, 1, 1, NULL, 'L', 'encaixe');
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (3, '${DAY}', '11:00', 30, 1, NULL, NULL, 'L', NULL);
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (4, '${DAY}', '09:00', 30, 2, 1, NULL, 'L', NULL);
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (5, '${DAY}', '08:00', 30, 1, 1, 3, 'A', 'retorno');
INSERT INTO vaga (vid, data, hora, minutos, mid, sala, cid, situacao, obs) VALUES (6, '${DAY}', '12:00', 30, 1, 1, 2, 'X', NULL);
`

const mapping = (onCancel: string): string => `version: 1
installation: vagas
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: vaga
    key: vid
    start:
      date: { column: data, format: date }
      hour: { column: hora, format: text }
    end: { duration: { column: minutos, unit: minutes } }
    state: { column: situacao, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: cid, professional: mid, location: sala }
    openSlots:
      free: [{ column: cid, isNull: true }, { column: situacao, eq: L }]
      onCancel: ${onCancel}
    write:
      key: { generate: max }
      update: { alterado: { now: datetime, format: text } }
      reschedule: { remarcada: { value: 1 } }
  client:
    table: cliente
    key: cid
    fields: { name: nome }
    phones: [fone]
    write: { key: { generate: max }, phoneFormat: digits }
  professional:
    table: medico
    key: mid
    fields: { name: nome }
  location:
    table: sala
    key: sid
    fields: { name: nome, address: nome }
`

type Row = { vid: number, data: string, hora: string, minutos: number, mid: number, sala: number | null, cid: number | null, situacao: string, obs: string | null, remarcada: number | null, alterado: string | null }

function dateOf (v: unknown): string {
  if (v instanceof Date) return `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
  return String(v).slice(0, 10)
}

async function rows (s: ServerScratch): Promise<Row[]> {
  const got = await s.rows('SELECT vid, data, hora, minutos, mid, sala, cid, situacao, obs, remarcada, alterado FROM vaga ORDER BY vid')
  const n = (v: unknown): number | null => v === null ? null : Number(v)
  return got.map((r) => ({ vid: Number(r.vid), data: dateOf(r.data), hora: String(r.hora), minutos: Number(r.minutos), mid: Number(r.mid), sala: n(r.sala), cid: n(r.cid), situacao: String(r.situacao).trim(), obs: r.obs, remarcada: n(r.remarcada), alterado: r.alterado === null ? null : String(r.alterado) }))
}

const byId = (all: Row[], vid: number): Row => all.find((r) => r.vid === vid) as Row
const freeRows = (all: Row[]): string[] => all.filter((r) => r.cid === null && r.situacao === 'L').map((r) => `${r.mid} ${r.data} ${r.hora}`).sort()

async function offered (t: Test, s: ServerScratch): Promise<string[]> {
  const res = await s.call('GET', `/availability?start=${DAY}&end=${DAY}`)
  t.equal(res.status, 200, JSON.stringify(res.body))
  return (res.body as Array<{ date: string, hour: string, professional: { id: string } }>).map((x) => `${x.professional.id} ${x.date} ${x.hour}`).sort()
}

async function book (t: Test, s: ServerScratch, hour: string, client: string): Promise<string> {
  const res = await s.call('POST', '/appointments', { date: DAY, hour, client, professional: '1' })
  t.equal(res.status, 200, JSON.stringify(res.body))
  return String(res.body.id)
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    for (const onCancel of ['release', 'reopen', 'keep']) {
      t.test(`onCancel ${onCancel}: the appointment and the free row swap times, the id stays`, async (t) => {
        const s = await scratchOn(t, dialect, SCHEMA, mapping(onCancel))
        const id = await book(t, s, '09:00', '1')
        t.equal(id, '1', 'the booking claims the 09:00 row')
        const before = await rows(s)
        const res = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '10:00' })
        t.equal(res.status, 200, res.body)
        t.equal(res.body, `Appointment 1 moved to ${DAY} 10:00.`, 'the answer names the same appointment, and no other')
        const got = await s.call('GET', '/appointments/1')
        t.equal(got.status, 200)
        t.match(got.body, { id: '1', date: DAY, hour: '10:00', endHour: '10:20', state: 'WAITING', client: { id: '1' }, professional: { id: '1' }, location: { id: '1' } }, 'GET of the same id reads it at the new time, with the slot\'s length')
        t.equal((await s.call('GET', '/appointments/2')).status, 404, 'the row it swapped with is a free row, no appointment')

        const after = await rows(s)
        const moved = byId(after, 1)
        t.match(moved, { data: DAY, hora: '10:00', minutos: 20, mid: 1, sala: 1, cid: 1, situacao: 'A', obs: 'vaga da manha', remarcada: 1 }, 'the appointment\'s row: the new time and length, its client, state and note, the reschedule\'s flag')
        t.match(moved.alterado, /^\d{4}-\d\d-\d\d \d\d:\d\d/, 'and the last-change stamp')
        const vacated = byId(after, 2)
        t.match(vacated, { data: DAY, hora: '09:00', minutos: 30, mid: 1, sala: 1, cid: null, situacao: 'L', obs: 'encaixe', remarcada: null }, 'the former free row: the old time and length, still free, its own note, no reschedule flag')
        t.match(vacated.alterado, /^\d{4}-\d\d-\d\d \d\d:\d\d/, 'stamped as changed')
        t.same(after.filter((r) => r.vid > 2), before.filter((r) => r.vid > 2), 'no other row changed')
        t.equal(after.length, before.length, 'no row added')
        t.same(freeRows(after), [`1 ${DAY} 09:00`, `1 ${DAY} 11:00`, `2 ${DAY} 09:00`], 'as many free rows as before: the old time free, the new one booked')
        t.same(await offered(t, s), freeRows(after), '/availability offers the old time again and not the new one')

        const back = await s.call('PATCH', '/appointments/1/time', { date: DAY, hour: '09:00' })
        t.equal(back.status, 200, back.body)
        t.match((await s.call('GET', '/appointments/1')).body, { id: '1', hour: '09:00', endHour: '09:30' }, 'and back again, still the same id')
        t.same(freeRows(await rows(s)), [`1 ${DAY} 10:00`, `1 ${DAY} 11:00`, `2 ${DAY} 09:00`])
        const cancel = await s.call('PATCH', '/appointments/1/state', { state: 'CANCELED' })
        t.equal(cancel.status, 200, 'the id the caller kept still cancels the appointment')
      })
    }

    t.test('a row without a room: each row keeps its own professional and room', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping('release'))
      const id = await book(t, s, '09:00', '2')
      const res = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '11:00' })
      t.equal(res.status, 200, res.body)
      const after = await rows(s)
      t.match(byId(after, 1), { hora: '11:00', minutos: 30, sala: 1, cid: 2 }, 'the appointment keeps its room')
      t.match(byId(after, 3), { hora: '09:00', sala: null, cid: null, situacao: 'L' }, 'the free row keeps having none')
      t.match((await s.call('GET', `/appointments/${id}`)).body, { id, hour: '11:00', location: { id: '1' } })
    })

    t.test('two moves into one free row at once: one 200, one 409, nothing corrupted', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping('release'))
      const a = await book(t, s, '09:00', '1')
      const before = await rows(s)
      const answers = await Promise.all([a, '5'].map(async (id) => await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '10:00' })))
      t.same(answers.map((x) => x.status).sort(), [200, 409], JSON.stringify(answers.map((x) => x.body)))
      const lost = answers.find((x) => x.status === 409)
      t.match(lost?.body.errors, [{ path: '/body/date' }, { path: '/body/hour' }])
      const winner = answers[0].status === 200 ? 1 : 5
      const loser = winner === 1 ? 5 : 1
      const after = await rows(s)
      t.match(byId(after, winner), { hora: '10:00', minutos: 20, cid: byId(before, winner).cid }, 'the winner is at 10:00')
      t.same(byId(after, loser), byId(before, loser), 'the loser is as it was')
      t.match(byId(after, 2), { hora: byId(before, winner).hora, minutos: byId(before, winner).minutos, cid: null, situacao: 'L' }, 'the free row took the winner\'s old time')
      t.equal(freeRows(after).length, freeRows(before).length, 'as many free rows as before')
      t.same(after.filter((r) => ![winner, 2].includes(r.vid)), before.filter((r) => ![winner, 2].includes(r.vid)), 'no other row changed')
      t.same(await offered(t, s), freeRows(after))
    })

    t.test('a time no free row starts at, or a booked one: 409 and nothing changed', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping('release'))
      const id = await book(t, s, '09:00', '1')
      const before = await rows(s)
      for (const hour of ['10:10', '08:00', '12:00']) {
        const res = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour })
        t.equal(res.status, 409, `${hour}: ${JSON.stringify(res.body)}`)
        t.match(res.body.errors, [{ path: '/body/date' }, { path: '/body/hour' }])
      }
      t.same(await rows(s), before, 'nothing changed')
      t.match((await s.call('GET', `/appointments/${id}`)).body, { id, hour: '09:00' })
    })

    t.test('the swap\'s UPDATEs change a row only while it is what they expect', async (t) => {
      // As if the clinic's program took the free row, or cancelled the appointment, between Ponte's reads and its UPDATEs.
      const s = await scratchOn(t, dialect, SCHEMA, mapping('release'))
      const db = await connect(s.url)
      t.teardown(async () => await db.close())
      const writes = compileMapping(buildModel(parseMapping(mapping('release'), 'x.yaml')), db.dialect).writes.appointment
      if (isUnsupported(writes) || !writes.openSlots) throw new Error('the mapping claims open slots')
      const { swap } = writes.openSlots
      const now = { date: '2032-06-01', time: '08:00:00', datetime: '2032-06-01 08:00:00', at: new Date('2032-06-01T11:00:00Z') }
      const at = (hour: string, endHour: string, minutes: number) => ({ date: DAY, hour, endHour, minutes })
      const before = await rows(s)
      class Rollback extends Error {}
      // The caller rolls back a swap that did not happen: its first UPDATE may have run.
      const tried = async (fn: (tx: Querier) => Promise<string>): Promise<string> => {
        let said = ''
        await db.transaction(async (tx) => { said = await fn(tx); throw new Rollback() }).catch((err) => { if (!(err instanceof Rollback)) throw err })
        return said
      }
      const appointment = { id: '5', state: 'WAITING', time: at('08:00', '08:30', 30) }
      t.equal(await tried(async (tx) => await swap(tx, appointment, { id: '6', time: at('12:00', '12:30', 30) }, now)), 'taken', 'a cancelled row that is not free is not taken')
      t.equal(await db.transaction(async (tx) => await swap(tx, appointment, { id: '5', time: at('08:00', '08:30', 30) }, now)), 'taken', 'nor an appointment\'s row')
      t.same(await rows(s), before, 'and neither changed')
      t.equal(await tried(async (tx) => await swap(tx, { ...appointment, state: 'CONFIRMED' }, { id: '2', time: at('10:00', '10:20', 20) }, now)), 'changed', 'an appointment no longer in the state read is not moved')
      t.equal(await tried(async (tx) => await swap(tx, { ...appointment, id: '3' }, { id: '2', time: at('10:00', '10:20', 20) }, now)), 'changed', 'nor a free row as if it were an appointment')
      // Committed, as on tables that cannot roll back: the free row is put back at its time.
      t.equal(await db.transaction(async (tx) => await swap(tx, { ...appointment, state: 'CONFIRMED' }, { id: '2', time: at('10:00', '10:20', 20) }, now)), 'changed')
      const unstamped = (all: Row[]): Row[] => all.map((r) => ({ ...r, alterado: null }))
      t.same(unstamped(await rows(s)), unstamped(before), 'a swap that did not happen leaves every row at its time, committed or not')
      t.equal(await db.transaction(async (tx) => await swap(tx, appointment, { id: '2', time: at('10:00', '10:20', 20) }, now)), 'swapped', 'the appointment as read swaps')
      t.match(byId(await rows(s), 5), { hora: '10:00', minutos: 20, cid: 3, situacao: 'A' })
      t.match(byId(await rows(s), 2), { hora: '08:00', minutos: 30, cid: null, situacao: 'L' })
    })

    t.test('check probes the move: the same id read back at the new time, everything rolled back', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping('release'))
      const before = await rows(s)
      const report = await checkOf(t, s.url, mapping('release'), addDays(DAY, -3))
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], 'no problem')
      t.ok(report.findings.some((f) => f.severity === 'ok' && /PATCH …\/time: .*swapped with the free row/.test(f.message)), 'the reschedule probe says it swapped')
      t.same(await rows(s), before, 'every probe rolled back')
    })
  })
}
