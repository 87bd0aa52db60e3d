// Issues 25/27: what a booking copies (the client's and the visit kind's and doctor's names)
// and the length a booking and a reschedule take from its service are read in the write's own
// transaction, on the schema of test/helpers/derived-writes.ts, on every test database. The
// catalogue is cached for an hour, so a rename or a new duration committed by the clinic's
// own program is seen only by a read in the transaction: the booking stores the new names
// with the new length, and a booking and a move are refused for it (read back from the database); the statements
// ran on the transaction's connection (its querier, observed around the real driver).
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { DERIVED_MAPPING, derivedSchema } from '../../helpers/derived-writes.js'
import type { Querier } from '../../../src/db/database.js'

// The booking's length is stored (`mins`), so a length taken from the stale catalogue shows in the row.
const MAPPING = DERIVED_MAPPING.replace('phone: { defaultCountry: CA }', 'phone: { defaultCountry: CA }\ncache: { ttlSeconds: 3600 }')
  .replace('      hour: { column: at_time, format: text }\n', '      hour: { column: at_time, format: text }\n    end: { duration: { column: mins } }\n')
const schema = (dialect: Parameters<typeof derivedSchema>[0]): string => derivedSchema(dialect).replace('room_no INTEGER, visits INTEGER);', 'room_no INTEGER, visits INTEGER, mins INTEGER);')

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
    // The names of the statements each transaction runs, as its querier is handed them.
    const db = s.installation.db
    const inTransactions: string[][] = []
    const transaction = db.transaction.bind(db)
    Object.assign(db, {
      transaction: async <T>(fn: (tx: Querier) => Promise<T>, at?: number, claims?: readonly string[]): Promise<T> => {
        const ran: string[] = []
        inTransactions.push(ran)
        return await transaction(async (tx) => await fn({ query: async (statement, args, a) => { ran.push(statement.name); return await tx.query(statement, args, a) } }), at, claims)
      }
    })
    const row = async (id: string): Promise<Record<string, any>> => (await s.rows(`SELECT day, at_time, mins, name, title, doc_label FROM booking WHERE booking_no = ${Number(id)}`))[0]

    const first = await s.call('POST', '/appointments', { date: '2031-03-04', hour: '09:00', client: '1', professional: 'D1', service: '7' })
    t.equal(first.status, 200, JSON.stringify(first.body))
    t.same([(await row(first.body.id)).title, (await row(first.body.id)).doc_label], ['Annual physical', 'Dr Ada Lovelace'], 'the names as the catalogue first read them')

    // The clinic's own program renames and lengthens, after the catalogue was cached.
    await s.rows("UPDATE visit_kind SET title = 'Physical exam', mins = 60 WHERE kind_id = 7")
    await s.rows("UPDATE doc SET doc_name = 'Dr Ada King' WHERE doc_code = 'D1'")
    await s.rows("UPDATE patient_rec SET surname = 'Patel-Shah' WHERE pat_no = 2")
    inTransactions.length = 0
    const second = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '10:30', client: '2', professional: 'D1', service: '7' })
    t.equal(second.status, 200, JSON.stringify(second.body))
    t.same((await row(second.body.id)), { day: (await row(second.body.id)).day, at_time: '10:30', mins: 60, name: 'PATEL-SHAH,RAJ', title: 'Physical exam', doc_label: 'Dr Ada King' }, 'the booking stores the names and the length committed before it')
    const booking = inTransactions.find((names) => names.includes('appointment.insert') || names.some((n) => n.startsWith('appointment.insert')))
    t.ok(booking, `the insert ran in a transaction (${JSON.stringify(inTransactions)})`)
    for (const name of ['appointment.write.clientName', 'service.byId', 'professional.byId']) t.ok(booking?.includes(name), `${name} ran on the booking's transaction`)
    t.equal(booking?.filter((n) => n === 'service.byId').length, 1, 'the service is read once for its length and its name')

    // A new booking takes the new 60 minutes too: from 10:00 they reach the 10:30 booking (the cached 30 would not).
    const clash = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '10:00', client: '1', professional: 'D1', service: '7' })
    t.equal(clash.status, 409, `the booking takes the service's new 60 minutes: ${JSON.stringify(clash.body)}`)
    t.same(await s.rows("SELECT booking_no FROM booking WHERE at_time = '10:00'"), [], 'nothing stored')
    const long = await s.call('POST', '/appointments', { date: '2031-03-06', hour: '09:00', client: '1', professional: 'D1', service: '7' })
    t.equal(long.status, 200, JSON.stringify(long.body))
    t.equal(Number((await row(long.body.id)).mins), 60, 'stored with the length the clinic set, read back from the table')
    t.equal(long.body.endHour, '10:00', 'and answered with its end')

    // 60 minutes from 10:00 reach the 10:30 booking; the cached 30 would not. A row with a
    // stored length moves with it: the first one's is cleared, as the desk leaves it.
    await s.rows(`UPDATE booking SET mins = NULL WHERE booking_no = ${Number(first.body.id)}`)
    inTransactions.length = 0
    const moved = await s.call('PATCH', `/appointments/${first.body.id as string}/time`, { date: '2031-03-05', hour: '10:00' })
    t.equal(moved.status, 409, `the move takes the service's new 60 minutes: ${JSON.stringify(moved.body)}`)
    t.ok(inTransactions.some((names) => names.includes('service.byId')), 'the duration was read on the move\'s transaction')
    const kept = await row(first.body.id)
    t.same([String(kept.day).slice(0, 10), kept.at_time], ['2031-03-04', '09:00'], 'the refused move changed nothing')
    const fits = await s.call('PATCH', `/appointments/${first.body.id as string}/time`, { date: '2031-03-05', hour: '09:30' })
    t.equal(fits.status, 200, JSON.stringify(fits.body))
    const now = await row(first.body.id)
    t.same([String(now.day).slice(0, 10), now.at_time], ['2031-03-05', '09:30'], 'moved where its 60 minutes fit')
  })
}
