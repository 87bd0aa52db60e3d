// Issue 29 (W5): every statement a booking makes on the bench's installation (the sample
// clinica-sorriso, as bench/run.ts books it: date, hour, client, professional, location), on
// SQLite, MariaDB and PostgreSQL, counted through the database's queriers — outside the
// transaction and on it — and listed by name, so an added round trip shows here first.
import t from 'tap'
import { sampleApp, TEST_KEY } from '../../helpers/app.js'
import { testDialects } from '../../helpers/contract.js'
import type { Querier } from '../../../src/db/database.js'

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
      'BEGIN', 'tx appointment.occupancy[professional|client]', 'tx appointment.key.bump',
      ...dialect === 'mysql' ? ['tx appointment.key.read'] : [], 'tx appointment.insert', 'tx appointment.byId[]'
    ], 'a booking\'s statements: the checks, the key, the insert and its read-back, which is the answer (no read after the commit)')
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
  })
}
