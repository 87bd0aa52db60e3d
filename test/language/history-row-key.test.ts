// `write.history.rowKey`: a status history numbered from the desk program's counter row
// (test/helpers/brazil-desk.ts: `sequencia('historico_sessao')` at 50), on every test database.
// A booking, a state change and a reschedule (its `left` row too) each write a log row keyed
// 51, 52, … from the counter, bumped in the same transaction: the counter ends at the largest
// key, one step per row, so the desk's next number (ULTIMO + 1) is free. `check` passes it, and
// without `rowKey` warns at the history of the counter row it leaves behind and, where the
// database does not make the key, of the key column; mistakes are refused at their line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DAY, DESK_SCHEMA, deskMapping } from '../helpers/brazil-desk.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const HISTORY = '/resources/appointment/write/history'

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('each log row takes the counter\'s next number, in the change\'s transaction', async (t) => {
      const s = await scratchOn(t, dialect, DESK_SCHEMA, deskMapping())
      const counter = async (): Promise<number> => Number((await s.rows("SELECT ultimo FROM sequencia WHERE tabela = 'historico_sessao'"))[0].ultimo)
      const log = async (): Promise<Array<[number, number, string, string | null]>> =>
        (await s.rows('SELECT seq, sessao, evento, anterior FROM historico_sessao ORDER BY seq')).map((r) => [Number(r.seq), Number(r.sessao), String(r.evento), r.anterior === null ? null : String(r.anterior)])

      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '1', service: '2' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(booked.body.id, '701', 'the visit from its own counter')
      const confirmed = await s.call('PATCH', '/appointments/701/state', { state: 'CONFIRMED' })
      t.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
      const moved = await s.call('PATCH', '/appointments/701/time', { date: DAY, hour: '10:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))

      t.same(await log(), [[50, 700, 'MARCOU', null], [51, 701, 'MARCOU', null], [52, 701, 'CONFIRMOU', null], [53, 701, 'REMARCOU', '09:00']],
        'the desk\'s row 50 kept; booking, confirming and the row the reschedule leaves numbered 51, 52, 53')
      t.equal(await counter(), 53, 'the counter advanced by exactly the three rows written: the desk\'s next number, 54, is free')
      t.equal(Number((await s.rows("SELECT ultimo FROM sequencia WHERE tabela = 'SESSAO'"))[0].ultimo), 701, 'the visit counter moved once')

      const taken = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1' })
      t.equal(taken.status, 409, 'a refused booking…')
      t.equal(await counter(), 53, '…bumps nothing (rolled back with it)')

      // The desk program numbers its next row as it always has: no collision.
      const next = await counter() + 1
      await s.rows(`INSERT INTO historico_sessao (seq, sessao, evento) VALUES (${next}, 700, 'DESK')`)
      await s.rows(`UPDATE sequencia SET ultimo = ${next} WHERE tabela = 'historico_sessao'`)
      const again = await s.call('PATCH', '/appointments/701/state', { state: 'CANCELED' })
      t.equal(again.status, 200, JSON.stringify(again.body))
      t.same((await log()).slice(-2), [[54, 700, 'DESK', null], [55, 701, 'DESMARCOU', null]], 'after the desk\'s row, Ponte\'s next is 55')
      t.equal(await counter(), 55)
    })

    t.test('check: passes with rowKey; without it, warns of the counter row at the history\'s line', async (t) => {
      const s = await scratchOn(t, dialect, DESK_SCHEMA, deskMapping())
      const keyed = await checkOf(t, s.url, deskMapping())
      t.same(keyed.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`), [], 'the mapping passes')
      t.same(keyed.findings.filter((f) => f.path.startsWith(HISTORY) && f.severity === 'warning'), [], 'nothing to say of the history')
      t.equal(Number((await s.rows("SELECT ultimo FROM sequencia WHERE tabela = 'historico_sessao'"))[0].ultimo), 50, 'check\'s write probe left the counter as it was')

      const bare = deskMapping({ rowKey: null })
      const report = await checkOf(t, s.url, bare)
      const said = report.findings.filter((f) => f.path === HISTORY && f.severity === 'warning')
      const counterSaid = said.find((f) => f.message.includes('counter row'))
      t.match(counterSaid?.message, /^`sequencia` keeps a counter row `HISTORICO_SESSAO` \(last 50\): the clinic's program numbers `historico_sessao` rows from it, but Ponte's history rows take the database's key, so the program's next row would collide with one of them; give `rowKey: \{ column: <key column>, generate: keyTable, table: sequencia, nameColumn: tabela, name: HISTORICO_SESSAO, valueColumn: ultimo \}`/)
      t.equal(counterSaid?.line, bare.split('\n').findIndex((l) => l.includes('history:')) + 2, 'at the history\'s line (its first key)')
      // SQLite's INTEGER PRIMARY KEY is the rowid, which the database makes; the others' is not.
      const keySaid = said.find((f) => f.message.includes('no default'))
      if (dialect === 'sqlite') t.notOk(keySaid, 'SQLite makes the key (its rowid)')
      else t.match(keySaid?.message, /^the key column `seq` of `historico_sessao` has no default and the database does not make it, and the mapping gives no `rowKey`/)
    })
  })
}

t.test('rowKey mistakes are refused at their line, or leave the appointment unwritable naming the place', async (t) => {
  const refused = (yaml: string): string => {
    try {
      const writes = compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite).writes.appointment
      return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : 'accepted'
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
  }
  t.equal(refused(deskMapping()), 'accepted')
  for (const gen of ['{ column: seq, generate: max }', '{ column: seq, generate: identity }', '{ column: seq, type: text, generate: uuid }']) {
    t.equal(refused(deskMapping({ rowKey: gen })), 'accepted', gen)
  }
  const twice = deskMapping().replace('evento: { value: REMARCOU }', 'evento: { value: REMARCOU }\n          seq: { value: 1 }')
  t.match(refused(twice), /write\/history\/left\/seq: `seq` is the history row's own key, made by `rowKey`: leave it out here/)
  t.match(refused(deskMapping({ rowKey: '{ column: sessao, generate: max }' })), /write\/history\/rowKey\/column: `sessao` holds the appointment's key/)
  t.match(refused(deskMapping({ rowKey: '{ column: seq, generate: max, per: sessao }' })), /m\.yaml:\d+.*rowKey/, 'no count per parent: refused at load')
  t.match(refused(deskMapping({ rowKey: '{ column: seq, generate: uuid }' })), /a UUID is text/)
})
