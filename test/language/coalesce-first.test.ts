// A ref read as a coalesce falling back to a joined column (test/helpers/coalesce-first.ts),
// on SQLite, MariaDB and PostgreSQL: the visit's own plan, else the member's first plan (Open
// Dental's InsPlan1, 0 on older rows). A booking writes the first item: through `firstOf` where
// it is joined (`plan_no`, with `fromClient` storing the member's own plan when none is sent),
// into the column where it is one of the visit's own (`payer_own`); read back and from the
// table. A coalesce whose first item is no column stays read-only (a 501, nothing written).
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { COALESCE_FIRST_SCHEMA, DAY, OWN_COLUMN, THROUGH_PLAN, coalesceFirstMapping } from '../helpers/coalesce-first.js'

const insurer = (a: { healthInsurance?: { id: string } }): string | null => a.healthInsurance?.id ?? null

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('through the visit\'s own plan (firstOf), else the member\'s', async (t) => {
      const s = await scratchOn(t, dialect, COALESCE_FIRST_SCHEMA, coalesceFirstMapping(THROUGH_PLAN.replace('{ firstOf: own }', '{ firstOf: own, fromClient: cp.plan_no }')))
      const stored = async (id: string): Promise<number> => Number((await s.rows(`SELECT plan_no FROM visit WHERE visit_id = ${Number(id)}`))[0].plan_no)
      const list = await s.call('GET', `/appointments?start=${DAY}&end=${DAY}`)
      t.equal(list.status, 200, JSON.stringify(list.body))
      t.same((list.body.data ?? list.body).map(insurer), ['10', '20', null], 'the visit\'s own plan, else the member\'s first, else none')

      const sent = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1', healthInsurance: '30' })
      t.equal(sent.status, 200, JSON.stringify(sent.body))
      t.equal(insurer(sent.body), '30', 'answered with the insurer sent')
      t.equal(await stored(sent.body.id), 300, 'stored: the visit\'s own plan of that insurer')
      t.equal(insurer((await s.call('GET', `/appointments/${String(sent.body.id)}`)).body), '30', 'read back')

      const own = await s.call('POST', '/appointments', { date: DAY, hour: '10:30', client: '2', professional: '1' })
      t.equal(own.status, 200, JSON.stringify(own.body))
      t.equal(await stored(own.body.id), 300, 'none sent: the member\'s first plan stored on the visit (fromClient)')
      t.equal(insurer(own.body), '30')
    })

    t.test('into the visit\'s own column, else the member\'s', async (t) => {
      const s = await scratchOn(t, dialect, COALESCE_FIRST_SCHEMA, coalesceFirstMapping(OWN_COLUMN))
      const stored = async (id: string): Promise<number> => Number((await s.rows(`SELECT payer_own FROM visit WHERE visit_id = ${Number(id)}`))[0].payer_own)
      const sent = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1', healthInsurance: '30' })
      t.equal(sent.status, 200, JSON.stringify(sent.body))
      t.equal(await stored(sent.body.id), 30, 'stored in the first item\'s column')
      t.equal(insurer((await s.call('GET', `/appointments/${String(sent.body.id)}`)).body), '30', 'read back')
      const none = await s.call('POST', '/appointments', { date: DAY, hour: '10:30', client: '1', professional: '1' })
      t.equal(none.status, 200, JSON.stringify(none.body))
      t.equal(await stored(none.body.id), 0, 'none sent: the column\'s none (nullIf)')
      t.equal(insurer(none.body), '20', 'read as the member\'s plan')
    })

    t.test('a first item that is no column stays read-only', async (t) => {
      const s = await scratchOn(t, dialect, COALESCE_FIRST_SCHEMA, coalesceFirstMapping(OWN_COLUMN.replace('{ column: payer_own, nullIf: [0] }', '{ template: \'{payer_own}\' }')))
      const count = async (): Promise<number> => Number((await s.rows('SELECT COUNT(*) AS n FROM visit'))[0].n)
      const res = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1', healthInsurance: '30' })
      t.equal(res.status, 501, JSON.stringify(res.body))
      t.match(JSON.stringify(res.body), /healthInsurance/)
      t.equal(await count(), 3, 'nothing written')
    })
  })
}
