// Slots that take several appointments (`write.slot.capacity`) and blocks that accept only
// some services (`write.slot.services`), on a small schema generated here: a group clinic
// whose blocks say how many patients each slot takes and which visit kinds they accept.
// /availability and booking must agree: a start is offered exactly while booking it works.
import t from 'tap'
import type { Test } from 'tap'
import { scratchInstallation, type Scratch } from '../helpers/scratch.js'

const DAY = '2031-03-04'
/** [block, provider, seats, kind column, slot starts]; each slot is 30 minutes. */
const BLOCKS: [number, number, number | null, number | null, string[]][] = [
  [1, 1, 2, 1, ['08:00', '08:30']],
  [2, 1, null, 2, ['10:00', '10:30']],
  [3, 2, 3, null, ['09:00']]
]
/** Kinds each block accepts in the map table; block 2 also has a retired row for kind 1. */
const KIND_ROWS: [number, number, number][] = [[1, 1, 1], [1, 2, 1], [2, 2, 1], [2, 1, 0], [3, 1, 1]]

function schema (): string {
  const slots: string[] = []
  let id = 1
  for (const [block, , , , starts] of BLOCKS) {
    for (const s of starts) {
      const [h, m] = s.split(':').map(Number)
      const end = `${String(h + (m === 30 ? 1 : 0)).padStart(2, '0')}:${m === 30 ? '00' : '30'}`
      // Slot 2 (08:30) says itself that it takes 3: a slot's own column.
      slots.push(`(${id}, ${block}, '${DAY} ${s}:00', '${DAY} ${end}:00', ${id === 2 ? 3 : 'NULL'})`)
      id++
    }
  }
  const q = (x: number | null): string => x === null ? 'NULL' : String(x)
  return `
CREATE TABLE provider (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE kind (id INTEGER PRIMARY KEY, name TEXT NOT NULL, minutes INT NOT NULL);
CREATE TABLE patient (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, phone TEXT);
CREATE TABLE block (id INTEGER PRIMARY KEY, provider_id INT NOT NULL, seats INT, kind_id INT);
CREATE TABLE block_kind (block_id INT NOT NULL, kind_id INT NOT NULL, active INT NOT NULL);
CREATE TABLE slot (id INTEGER PRIMARY KEY, block_id INT NOT NULL, starts DATETIME NOT NULL, ends DATETIME NOT NULL, places INT);
CREATE TABLE visit (id INTEGER PRIMARY KEY AUTOINCREMENT, slot_id INT NOT NULL, patient_id INT NOT NULL, kind_id INT NOT NULL, status TEXT NOT NULL);
INSERT INTO provider VALUES (1, 'Dra. Quispe'), (2, 'Dr. Mamani');
INSERT INTO kind VALUES (1, 'Grupo de apoyo', 30), (2, 'Consulta', 30);
INSERT INTO patient (name, phone) VALUES ('Ana', '71111111'), ('Beto', '72222222'), ('Carla', '73333333'), ('Dora', '74444444'), ('Eva', '75555555');
INSERT INTO block VALUES ${BLOCKS.map(([b, p, seats, kind]) => `(${b}, ${p}, ${q(seats)}, ${q(kind)})`).join(', ')};
INSERT INTO block_kind VALUES ${KIND_ROWS.map((r) => `(${r.join(', ')})`).join(', ')};
INSERT INTO slot VALUES ${slots.join(', ')};
-- One place of the 08:00 group is taken already.
INSERT INTO visit (slot_id, patient_id, kind_id, status) VALUES (1, 1, 1, 'B');
`
}

function mapping (slot: string): string {
  return `
version: 1
installation: group-clinic
timezone: America/La_Paz
resources:
  appointment:
    table: visit
    key: id
    joins:
      slot: { table: slot, on: { slot_id: id } }
      block: { table: block, from: slot, on: { block_id: id } }
    start: { datetime: { column: slot.starts, format: datetime } }
    end: { datetime: { column: slot.ends, format: datetime } }
    state: { column: status, map: { B: WAITING, X: CANCELED } }
    refs: { client: patient_id, professional: block.provider_id, service: kind_id }
    write:
      slot:
${slot.trim().split('\n').map((l) => `        ${l}`).join('\n')}
      set: { kind_id: { value: 2 } }
  client:
    table: patient
    key: id
    fields: { name: name }
    phones: [phone]
  professional: { table: provider, key: id, fields: { name: name } }
  service: { table: kind, key: id, fields: { name: name, duration: minutes } }
states:
  values: [WAITING, CANCELED]
  free: [CANCELED]
availability:
  dated:
    table: slot
    joins: { block: { table: block, on: { block_id: id } } }
    professional: block.provider_id
    start: { column: starts, format: datetime }
    end: { column: ends, format: datetime }
    interval: { minutes: { from: starts, to: ends } }
`
}

async function clinic (t: Test, slot: string): Promise<Scratch> {
  return await scratchInstallation(t, schema(), mapping(slot))
}

type Reply = { status: number, body: any }
const offered = async (c: Scratch, query = ''): Promise<string[]> => {
  const r = await c.get(`/availability?start=${DAY}&end=${DAY}${query}`)
  if (r.status !== 200) throw new Error(`/availability → ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.map((s: any) => `${s.hour}/${s.professional.id}`)
}
const book = async (c: Scratch, hour: string, client: number, professional = 1, service?: number): Promise<Reply> =>
  await c.call('POST', '/appointments', { date: DAY, hour, client: String(client), professional: String(professional), ...(service ? { service: String(service) } : {}) })
const visits = (c: Scratch, slot: number): number => (c.raw.prepare('SELECT COUNT(*) AS n FROM visit WHERE slot_id = ? AND status = \'B\'').get(slot) as { n: number }).n
const rows = (c: Scratch): number => (c.raw.prepare('SELECT COUNT(*) AS n FROM visit').get() as { n: number }).n

t.test('capacity from a column of the block: a slot is offered and booked until it is full', async (t) => {
  const c = await clinic(t, 'join: slot\ncapacity: { column: block.seats }')
  t.same(await offered(c), ['08:00/1', '08:30/1', '09:00/2', '10:00/1', '10:30/1'], 'the 08:00 group has one place of two left')
  const second = await book(c, '08:00', 2)
  t.equal(second.status, 200, JSON.stringify(second.body))
  t.equal(visits(c, 1), 2, 'two visits point at the 08:00 slot')
  t.same(await offered(c), ['08:30/1', '09:00/2', '10:00/1', '10:30/1'], 'full: no longer offered')
  const third = await book(c, '08:00', 3)
  t.equal(third.status, 409, 'a full slot is refused')
  t.match(third.body.detail, /full: it takes 2 appointments/)
  t.equal(visits(c, 1), 2, 'nothing written')

  t.equal((await c.call('PATCH', `/appointments/${second.body.id}/state`, { state: 'CANCELED' })).status, 200)
  t.same(await offered(c), ['08:00/1', '08:30/1', '09:00/2', '10:00/1', '10:30/1'], 'a canceled visit frees its place')
  t.equal((await book(c, '08:00', 3)).status, 200, 'the freed place books')
  const back = await c.call('PATCH', `/appointments/${second.body.id}/state`, { state: 'WAITING' })
  t.equal(back.status, 409, 'back from canceled into a full slot is refused')

  // NULL seats: the default single place.
  const single = await book(c, '10:00', 4)
  t.equal(single.status, 200, JSON.stringify(single.body))
  t.equal((await book(c, '10:00', 5)).status, 409, 'a slot whose capacity is NULL takes one')
  t.equal((await c.call('PATCH', `/appointments/${single.body.id}/time`, { date: DAY, hour: '08:00' })).status, 409, 'no rescheduling into a full slot')
  const moved = await c.call('PATCH', `/appointments/${single.body.id}/time`, { date: DAY, hour: '08:30' })
  t.equal(moved.status, 200, JSON.stringify(moved.body))
  t.same(await offered(c, '&professional=1'), ['08:30/1', '10:00/1', '10:30/1'], '08:30 has one of two places left, 10:00 is free again')

  // Three places at 09:00: each offered start books as many times as it takes, then no more.
  for (const client of [1, 2, 3]) t.equal((await book(c, '09:00', client, 2)).status, 200, `place ${client} of 3`)
  t.same(await offered(c, '&professional=2'), [], 'full after three')
  const before = rows(c)
  t.equal((await book(c, '09:00', 4, 2)).status, 409)
  t.equal(rows(c), before, 'nothing written')
})

t.test('capacity from a column of the slot itself', async (t) => {
  const c = await clinic(t, 'join: slot\ncapacity: { column: slot.places }')
  t.same(await offered(c, '&professional=1'), ['08:30/1', '10:00/1', '10:30/1'], '08:00 takes one and has it (NULL places)')
  for (const client of [1, 2, 3]) t.equal((await book(c, '08:30', client)).status, 200, `08:30: place ${client} of 3`)
  t.equal((await book(c, '08:30', 4)).status, 409)
  t.same(await offered(c, '&professional=1'), ['10:00/1', '10:30/1'])
})

t.test('capacity as a number: every slot takes that many', async (t) => {
  const c = await clinic(t, 'join: slot\ncapacity: 2')
  t.same(await offered(c), ['08:00/1', '08:30/1', '09:00/2', '10:00/1', '10:30/1'])
  t.equal((await book(c, '10:00', 1)).status, 200)
  t.equal((await book(c, '10:00', 2)).status, 200)
  t.equal((await book(c, '10:00', 3)).status, 409)
  t.equal((await book(c, '10:00', 1)).status, 409, 'the same client twice in one slot is refused whatever it takes')
})

t.test('without capacity a slot takes one appointment, as before', async (t) => {
  const c = await clinic(t, 'join: slot')
  t.same(await offered(c), ['08:30/1', '09:00/2', '10:00/1', '10:30/1'])
  t.equal((await book(c, '08:00', 2)).status, 409)
})

t.test('services accepted per block, from a child table with its own filter', async (t) => {
  const c = await clinic(t, [
    'join: slot',
    'capacity: { column: block.seats }',
    'services: { table: block_kind, on: { block.id: block_id }, where: { column: active, eq: 1 }, column: kind_id }'
  ].join('\n'))
  t.same(await offered(c, '&service=1'), ['08:00/1', '08:30/1', '09:00/2'], 'kind 1: blocks 1 and 3 (block 2\'s row for it is retired)')
  t.same(await offered(c, '&service=2'), ['08:00/1', '08:30/1', '10:00/1', '10:30/1'], 'kind 2: blocks 1 and 2')
  t.same(await offered(c), ['08:00/1', '08:30/1', '09:00/2', '10:00/1', '10:30/1'], 'without a service: every slot')

  const before = rows(c)
  const refused = await book(c, '10:00', 2, 1, 1)
  t.equal(refused.status, 409, 'a slot whose block does not accept the service')
  t.match(refused.body.detail, /does not take service 1/)
  t.equal(rows(c), before, 'nothing written')
  const accepted = await book(c, '10:00', 2, 1, 2)
  t.equal(accepted.status, 200, JSON.stringify(accepted.body))

  const group = await book(c, '08:30', 3, 1, 1)
  t.equal(group.status, 200, JSON.stringify(group.body))
  t.equal((await c.call('PATCH', `/appointments/${group.body.id}/time`, { date: DAY, hour: '10:30' })).status, 409, 'rescheduling keeps the service: block 2 does not take kind 1')
  t.equal((await c.call('PATCH', `/appointments/${accepted.body.id}/time`, { date: DAY, hour: '10:30' })).status, 200, 'kind 2 moves within block 2')
  t.equal((await book(c, '09:00', 4, 2)).status, 409, 'no service named: the kind written (the mapping\'s default, 2) must be accepted too')
  t.equal((await book(c, '09:00', 4, 2, 1)).status, 200)
})

t.test('services accepted per block, from a column of the block', async (t) => {
  const c = await clinic(t, 'join: slot\ncapacity: { column: block.seats }\nservices: { column: block.kind_id }')
  t.same(await offered(c, '&service=1'), ['08:00/1', '08:30/1'])
  t.same(await offered(c, '&service=2'), ['10:00/1', '10:30/1'])
  t.same(await offered(c, '&service=x'), [], 'an id no kind can have')
  t.equal((await book(c, '08:00', 2, 1, 2)).status, 409)
  t.equal((await book(c, '08:00', 2, 1, 1)).status, 200)
  t.equal((await book(c, '09:00', 3, 2, 1)).status, 409, 'a block whose column is NULL accepts none')
})

t.test('a slot declaration the compiler cannot follow is a 501 naming the place', async (t) => {
  const c = await clinic(t, 'join: slot\ncapacity: { column: seats }')
  const r = await book(c, '10:00', 2)
  t.equal(r.status, 501, JSON.stringify(r.body))
  t.match(JSON.stringify(r.body), /capacity/)
})
