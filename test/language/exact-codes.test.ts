// Issue 27 items 5 and 6 on an OSCAR-like schema generated in the test, on every test
// database: a two-character status where case tells codes apart (`b` Left Message, `B` Billed)
// and a modifier letter may follow (`BS`, `HV`, `CS`), kept once in a column that compares
// bytes and once in one whose collation ignores case (MariaDB `_ci`, SQLite NOCASE, a
// PostgreSQL nondeterministic collation). Reads, `?state=` filters, the states that free a
// slot, PATCH and booking writes (read back from the database directly) and check's count of
// unmapped codes must hold on both; conditions that nest select the right rows.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { CODES, DAY, STATE_LINE, STATUS, codesMapping as mapping, codesSchema as schema } from '../helpers/oscar-codes.js'

const list = (s: ServerScratch, query = ''): ReturnType<ServerScratch['call']> =>
  s.call('GET', `/appointments?start=${DAY}&end=${DAY}${query}`)
const ids = (body: Array<{ id: string }>): string[] => body.map((a) => a.id).sort((a, b) => Number(a) - Number(b))

for (const dialect of testDialects()) {
  for (const column of ['status', 'status_ci']) {
    t.test(`${dialect}, ${column} (${STATUS[dialect][column === 'status' ? 'bytes' : 'anyCase']})`, async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping(column))

      t.test('b and B read as different states; a modifier letter after the code is read by the code', async (t) => {
        const res = await list(s, '&professional=101')
        t.equal(res.status, 200, JSON.stringify(res.body))
        const states = Object.fromEntries((res.body as Array<{ id: string, state: string }>).map((a) => [a.id, a.state]))
        for (const [id, , code, state] of CODES) {
          if (state !== undefined) t.equal(states[String(id)], state, `'${code}' reads ${state}`)
          else t.notOk(['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE'].includes(states[String(id)]), `'${code}' reads as no state of the map (${String(states[String(id)])})`)
        }
        const detail = await s.call('GET', '/appointments/2')
        t.equal(detail.body.state, 'WAITING', 'the detail agrees with the list')
      })

      t.test('?state= keeps exactly the rows of that state', async (t) => {
        for (const state of ['WAITING', 'DONE', 'CONFIRMED', 'CANCELED']) {
          const res = await list(s, `&professional=101&state=${state}`)
          t.equal(res.status, 200)
          t.same(ids(res.body), CODES.filter((c) => c[3] === state).map((c) => String(c[0])), state)
        }
      })

      t.test('nested conditions: the table\'s rows and a classification from (P and T) or (Q and U)', async (t) => {
        const res = await list(s, '&minimal=false')
        t.equal(res.status, 200)
        // 102's rows: 20 (template A) by the second branch; 21 (B) by none; 22 (none) not by the third.
        t.same(ids(res.body), [...CODES.map((c) => String(c[0])), '20'])
        const labels = Object.fromEntries((res.body as Array<{ id: string, classification?: string }>).map((a) => [a.id, a.classification]))
        t.same([labels['4'], labels['6'], labels['2'], labels['3'], labels['1'], labels['20']], ['Priority', 'Priority', 'Call back', 'Routine', 'Routine', 'Routine'],
          '101 with template A is Priority (4, 6); b with template B a call back (2), B (3) and t (1) not; 102 with template A Routine')
        const callBack = await s.call('GET', '/appointments/2')
        t.equal(callBack.body.classification, 'Call back', 'the detail reads the rules alike')
      })

      t.test('a cancelled code with a modifier frees its slot; a billed one holds it', async (t) => {
        const free = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=101`)
        t.equal(free.status, 200, JSON.stringify(free.body))
        const hours = JSON.stringify(free.body)
        t.match(hours, /10:30/, '10:30 (CS) is offered')
        t.notMatch(hours, /09:30/, '09:30 (BS) is not')
        const taken = await s.call('POST', '/appointments', { date: DAY, hour: '09:30', client: '1', professional: '101' })
        t.equal(taken.status, 409, 'BS holds its slot')
        const booked = await s.call('POST', '/appointments', { date: DAY, hour: '10:30', client: '2', professional: '101' })
        t.equal(booked.status, 200, JSON.stringify(booked.body))
        t.equal(booked.body.state, 'WAITING')
        const [row] = await s.rows(`SELECT ${column} AS code FROM appointment WHERE appointment_no = ${Number(booked.body.id)}`)
        t.equal(row?.code?.trimEnd(), 't', 'the booking stores the declared code t, not T')
      })

      t.test('PATCH state writes the exact code, read back from the database', async (t) => {
        const moves: [string, string, string][] = [['1', 'DONE', 'B'], ['3', 'WAITING', 't'], ['5', 'CANCELED', 'C']]
        for (const [id, state, code] of moves) {
          const res = await s.call('PATCH', `/appointments/${id}/state`, { state })
          t.equal(res.status, 200, JSON.stringify(res.body))
          const [row] = await s.rows(`SELECT ${column} AS code FROM appointment WHERE appointment_no = ${id}`)
          t.equal(row?.code?.trimEnd(), code, `${state} is stored as '${code}'`)
          t.equal((await s.call('GET', `/appointments/${id}`)).body.state, state, 'and reads back as itself')
        }
        const done = await list(s, '&professional=101&state=DONE')
        t.same(ids(done.body), ['1', '4'], 'the filter follows the written codes')
      })

      t.test('check counts T as unmapped and no other code, b and B apart', async (t) => {
        const report = await checkOf(t, s.url, mapping(column))
        const unmapped = report.findings.filter((f) => /is not mapped/.test(f.message))
        t.same(unmapped.map((f) => f.message.replace(/e\.g\. id \d+/, '')), [`stored ${column} T is not mapped: 1 rows, `], report.lines.join('\n'))
      })
    })
  }
}

t.test('mapping errors say why', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      if (err instanceof MappingError) return err.issues.map((i) => `${i.path}: ${i.message}`).join('\n')
      throw err
    }
    return 'accepted'
  }
  const base = mapping('status')
  t.match(refused(base.replace('      codes: exact\n', '')), /map: `b` and `B` are one code when case does not count: give `codes: exact`/, 'b and B without codes: exact')
  t.match(refused(base.replace('      match: prefix\n', '      match: prefix\n      type: int\n').replace(STATE_LINE, "      map: { '1': WAITING }")), /codes: `codes` is for text codes/, 'prefix on a number column')
  t.match(refused(base.replace('    classification:\n', '    classification:\n      codes: exact\n')), /classification\/codes: `codes` says how the codes of a `map` compare/, 'codes without a map')
  const deep = '{ any: [{ all: [{ not: { any: [{ all: [{ column: template, eq: A }] }] } }] }] }'
  t.match(refused(base.replace("        - { column: provider_no, eq: '101' }\n", `        - ${deep}\n`)), /any\/0\/any\/0\/all\/0\/not: conditions nest more than 4 groups deep/, 'five groups deep')
  t.equal(refused(base.replace("        - { column: provider_no, eq: '101' }\n", '        - { any: [{ all: [{ not: { column: template, eq: A } }] }] }\n')), 'accepted', 'four groups deep')
  t.match(refused(base.replace("        - { column: provider_no, eq: '101' }\n", "        - { column: provider_no, eq: '101', any: [{ column: template, eq: A }] }\n")), /where\/any\/0: a condition is either one test on a column or one group \(all, any, not\): `column`, `eq` cannot stand beside `any`; write the test as one more condition inside `any`/, 'a test on a column and a group in one condition')
  t.match(refused(base.replace("        - { column: provider_no, eq: '101' }\n", '        - { all: [{ column: template, eq: A }], any: [{ column: template, eq: B }] }\n')), /where\/any\/0: a condition is one group: `all` and `any` cannot share it; nest one inside the other/, 'two groups in one condition')
  t.match(refused(base.replace("        - { column: provider_no, eq: '101' }\n", '        - { any: [{ column: template, eq: A, foo: 1 }] }\n')), /where\/any\/0\/any\/0\/foo: unknown key/, 'a mistake inside a nested condition is found where it is')
})
