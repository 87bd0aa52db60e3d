// Issue 29 (W5): every statement a booking makes on the bench's installation (the sample
// clinica-sorriso, as bench/run.ts books it: date, hour, client, professional, location), on
// SQLite, MariaDB and PostgreSQL, counted through the database's queriers — outside the
// transaction and on it — and listed by name, so an added round trip shows here first; on
// MariaDB and PostgreSQL also the round trips on the wire, the claims' included.
import t from 'tap'
import { sampleApp, TEST_KEY } from '../../helpers/app.js'
import { testDialects } from '../../helpers/contract.js'
import type { Querier } from '../../../src/db/database.js'
import { tcpProxy } from '../../helpers/tcp-proxy.js'
import { openInstallation } from '../../../src/installation.js'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const a = await sampleApp('mappings/clinica-sorriso.yaml', {}, dialect)
    t.teardown(async () => { await a.close() })
    const db = a.inst.db
    const ran: string[] = []
    const query = db.query.bind(db)
    const transaction = db.transaction.bind(db)
    Object.assign(db, {
      query: async (statement: Parameters<Querier['query']>[0], args?: Record<string, unknown>, at?: number) => { ran.push(statement.name); return await query(statement, args, at) },
      // Each run of the transaction's work (a retry runs it again) begins with BEGIN.
      transaction: async <T>(fn: (tx: Querier) => Promise<T>, at?: number, claims?: readonly string[]): Promise<T> =>
        await transaction(async (tx) => {
          ran.push('BEGIN')
          return await fn({ query: async (statement, args, x) => { ran.push(`tx ${statement.name}`); return await tx.query(statement, args, x) } })
        }, at, claims)
    })
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }
    const book = async (slot: any, client: string): Promise<{ status: number, body: any }> => {
      const res = await a.app.inject({ method: 'POST', url: '/appointments', headers, payload: { date: slot.date, hour: slot.hour, client, professional: slot.professional.id, location: slot.location.id } })
      return { status: res.statusCode, body: JSON.parse(res.body) }
    }
    const listed = (await a.get('/appointments?start=2026-11-23&end=2026-11-27')).body as any[]
    const clients = [...new Set(listed.flatMap((x) => x.client?.id === undefined ? [] : [x.client.id as string]))]
    t.ok(clients.length >= 9, 'nine clients')
    const day = '2031-03-04'
    const free = (await a.get(`/availability?start=${day}&end=${day}`)).body as any[]
    const byProfessional = new Map<string, any[]>()
    for (const s of free) if (s.location !== undefined) byProfessional.set(s.professional.id, [...byProfessional.get(s.professional.id) ?? [], s])
    const slots = [...byProfessional.values()].sort((x, y) => y.length - x.length)[0] ?? []
    t.ok(slots.length >= 9, `a professional with 9 free slots that day (${slots.length})`)
    // The catalogue and the column catalogue are warm, as under load: a first booking.
    t.equal((await book(slots[0], clients[0])).status, 200)

    ran.length = 0
    const one = await book(slots[1], clients[1])
    t.equal(one.status, 200, JSON.stringify(one.body))
    t.same(ran, [
      'client.byId', 'availability.weekly[professional]', 'availability.blocks', 'appointment.write.sala.lookup',
      'BEGIN', 'tx appointment.occupancy[professional|client]', 'tx appointment.key.bump', 'tx appointment.insert', 'tx appointment.byId[]'
    ], 'a booking\'s statements: the checks, the key (bumped and read in one statement on every database), the insert and its read-back, which is the answer (no read after the commit)')
    t.same(one.body, (await a.get(`/appointments/${one.body.id as string}`)).body, 'the answer is what GET reads')

    // Bookings of one professional's day at once wait for each other: each transaction runs once
    // (a PostgreSQL serialization failure would run it again, or answer 503 past the retries).
    const inTransaction = (names: string[]): number => names.filter((n) => n.startsWith('tx ')).length
    const perBooking = inTransaction(ran)
    ran.length = 0
    const answers = await Promise.all(slots.slice(2, 9).map(async (slot, i) => await book(slot, clients[2 + i])))
    t.same(answers.map((r) => r.status), answers.map(() => 200), JSON.stringify(answers.filter((r) => r.status !== 200).map((r) => r.body)))
    t.equal(ran.filter((n) => n === 'BEGIN').length, 7, 'one transaction per booking')
    t.equal(inTransaction(ran), 7 * perBooking, 'no statement in a transaction run twice')

    // With change detection under way (its first poll primed the store), a booking's event is
    // its read-back: nothing is read after the commit either.
    a.app.changePoller.start()
    for (let i = 0; i < 1200 && a.app.changePoller.state.polls < 1; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    t.equal(a.app.changePoller.state.lastError, null, 'the first poll succeeded')
    const head = (await a.get('/events?after=0&limit=500')).body.next as number
    const next = (await a.get('/availability?start=2031-03-05&end=2031-03-05')).body as any[]
    const slot = next.find((s) => s.location !== undefined && s.professional.id === slots[0].professional.id)
    ran.length = 0
    const evented = await book(slot, clients[0])
    t.equal(evented.status, 200, JSON.stringify(evented.body))
    t.equal(ran.at(-1), 'tx appointment.byId[]', `no statement after the transaction (${ran.join(', ')})`)
    const events = (await a.get(`/events?after=${head}&limit=500`)).body.events as any[]
    t.same(events.map((e) => e.type), ['appointment.created'], 'the booking is in the event feed')
    t.same(events[0]?.data.appointment, (await a.get(`/appointments/${evented.body.id as string}`)).body, 'as GET /appointments/{id} reads it')
  })
}

// On a server, what a booking costs on the wire, counted by a relay between Ponte and the
// database (one connection, so each statement is prepared once and warm after a first booking):
// each read and statement one round trip, the transaction's claims taken in one and given back
// in one, BEGIN and COMMIT one each. The claims and the transaction hold the professional's day
// from the claim's answer to the release: every round trip added there delays the next booking.
for (const dialect of testDialects().filter((d) => d !== 'sqlite')) {
  t.test(`${dialect}: a booking's round trips on the wire`, async (t) => {
    const a = await sampleApp('mappings/clinica-sorriso.yaml', {}, dialect)
    t.teardown(async () => { await a.close() })
    const target = new URL(a.url)
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port) })
    t.teardown(async () => { await proxy.close() })
    const relayed = new URL(a.url)
    relayed.host = `127.0.0.1:${proxy.port}`
    relayed.searchParams.set('poolMax', '1')
    const inst = await openInstallation('mappings/clinica-sorriso.yaml', relayed.toString())
    const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: 'mappings/clinica-sorriso.yaml', IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
    const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
    t.teardown(async () => { await app.close(); await inst.close() })
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }
    const get = async (url: string): Promise<any> => JSON.parse((await app.inject({ method: 'GET', url, headers })).body)
    const clients = [...new Set((await get('/appointments?start=2026-11-23&end=2026-11-27') as any[]).flatMap((x) => x.client?.id === undefined ? [] : [x.client.id as string]))]
    const day = '2031-03-05'
    const free = await get(`/availability?start=${day}&end=${day}`) as any[]
    const slots = free.filter((s) => s.location !== undefined && s.professional.id === free.find((f) => f.location !== undefined).professional.id)
    t.ok(slots.length >= 2 && clients.length >= 2, 'two free slots of one professional, two clients')
    const book = async (slot: any, client: string): Promise<number> => {
      const res = await app.inject({ method: 'POST', url: '/appointments', headers, payload: { date: slot.date, hour: slot.hour, client, professional: slot.professional.id, location: slot.location.id } })
      t.equal(res.statusCode, 200, res.body)
      return res.statusCode
    }
    await book(slots[0], clients[0])
    const before = proxy.turns()
    await book(slots[1], clients[1])
    // client.byId, availability.weekly, availability.blocks, the room; the claims; BEGIN;
    // occupancy, key bump, insert, read-back; COMMIT; the claims given back.
    t.equal(proxy.turns() - before, 4 + 1 + 1 + 4 + 1 + 1, 'a booking takes 12 round trips, 7 of them while it holds its claims')
  })
}
