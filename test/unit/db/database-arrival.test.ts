// The request's arrival reaches every database call a request makes (db/database.ts Arrival),
// the schema reads included: a first search reads which phone columns have an index, a first
// client write the catalogue its text columns are fitted to. Sample 1 on a real SQLite copy, seen through a
// wrapper that records the arrival each call is handed and passes the call on.
import t from 'tap'
import type { Arrival, Database } from '../../../src/db/database.js'
import { openSample } from '../../../src/installation.js'
import { Catalog } from '../../../src/services/catalog.js'
import { Clients } from '../../../src/services/clients.js'
import { ClientWrites } from '../../../src/services/client-writes.js'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { TEST_KEY } from '../../helpers/app.js'

const ARRIVAL = 1234.5

function watched (db: Database): { db: Database, seen: Array<[string, Arrival]> } {
  const seen: Array<[string, Arrival]> = []
  const out: Database = {
    get dialect () { return db.dialect },
    get stats () { return db.stats },
    introspect: {
      catalog: async (at) => { seen.push(['introspect.catalog', at]); return await db.introspect.catalog(at) },
      references: async () => await db.introspect.references()
    },
    query: async (statement, args, at) => { seen.push([`query ${statement.name}`, at]); return await db.query(statement, args, at) },
    transaction: async (fn, at, claims) => { seen.push(['transaction', at]); return await db.transaction(fn, at, claims) },
    ping: async () => { await db.ping() },
    close: async () => { await db.close() }
  }
  return { db: out, seen }
}

t.test('a search and a client write hand their arrival to every call, schema reads included', async (t) => {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const { db, seen } = watched(inst.db)
  const catalog = new Catalog(inst.compiled, db)
  const clients = new Clients(inst.compiled, db)
  const writes = new ClientWrites(inst.compiled, db, catalog, clients)

  await clients.search('+5511987654321', { limit: 10, offset: 0 }, ARRIVAL)
  const searched = seen.length
  t.ok(seen.some(([what]) => what === 'introspect.catalog'), 'the search read the indexes')
  await writes.create({ name: 'Chegada Marcada', phone: '+5511987650003' }, ARRIVAL)
  const names = seen.slice(searched).map(([what]) => what)
  t.ok(names.includes('introspect.catalog'), 'the write read the catalogue for its text columns')
  t.ok(names.includes('transaction'), 'the write wrote')
  t.same(seen.filter(([, at]) => at !== ARRIVAL), [], 'every call got the arrival')
})

t.test('a list and a state change hand their arrival to every call, the current row read before the transaction included', async (t) => {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const { db, seen } = watched(inst.db)
  const ponte = createPonte(loadConfig({ API_KEYS: TEST_KEY, MAPPING: 'mappings/clinica-sorriso.yaml', IDEMPOTENCY_STORE: ':memory:' }), db, inst.compiled)
  const waiting = (await ponte.appointments.list({ start: '2026-11-23', end: '2026-11-27' }, ARRIVAL)).find((a) => a.state === 'WAITING')
  if (waiting === undefined) { t.fail('the sample has a waiting appointment that week'); return }
  const listed = seen.length
  t.ok(listed > 0, 'the list read the database')
  t.match(await ponte.booking.changeState(waiting.id, 'CONFIRMED', ARRIVAL), /is now CONFIRMED/)
  const names = seen.slice(listed).map(([what]) => what)
  t.ok(names.some((n) => /^query appointment\.\w*byId/.test(n)), `the current row was read before the transaction (${names.join(', ')})`)
  t.ok(names.includes('transaction'), 'then written in a transaction')
  t.same(seen.filter(([, at]) => at !== ARRIVAL), [], 'every call got the arrival')
})
