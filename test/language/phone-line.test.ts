// Issue 27: phones kept as child rows keyed by (patient, seq), their kind a code following the
// number. A new phone's row takes the code of its line (mobile, landline, other) and the next
// number of its patient; rows added by PATCH (an e-mail, a birthday in the same table) count on.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { PHONE_ROWS_SCHEMA as SCHEMA, phoneRowsMapping as mapping } from '../helpers/phone-rows.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

// The plans of +1 do not tell mobiles from landlines: a UK mobile and a UK landline show the two
// codes, a US number `fixedLineOrMobile` (here absent: `otherwise`), a toll-free number `otherwise`.
const SENT = [
  { phone: '+447911123456', kind: 'C', num: '+447911123456' },
  { phone: '+442079460018', kind: 'H', num: '+442079460018' },
  { phone: '+13125550102', kind: 'W', num: '312-555-0102' },
  { phone: '+18002662278', kind: 'W', num: '800-266-2278' }
]

for (const dialect of testDialects()) {
  t.test(`${dialect}: a new phone's row takes its line's code and its patient's next number`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping())
    for (const [i, sent] of SENT.entries()) {
      const made = await s.call('POST', '/clients', { name: `Client ${i}`, phone: sent.phone })
      t.equal(made.status, 200, `POST ${sent.phone}: ${JSON.stringify(made.body)}`)
      const id = made.body.id as string
      const rows = await s.rows(`SELECT seq, kind, num FROM chart_phone WHERE chart_no = ${id}`)
      t.same(rows.map((r) => ({ seq: Number(r.seq), kind: String(r.kind).trim(), num: r.num })), [{ seq: 1, kind: sent.kind, num: sent.num }], `${sent.phone} stored as kind ${sent.kind}, the patient's row 1`)
      t.equal((await s.call('GET', `/clients/${id}`)).body.phone, sent.phone, 'the phone reads back as sent')
      t.equal((await s.call('GET', `/clients/search?term=${encodeURIComponent(sent.phone)}`)).body.map((c: { id: string }) => c.id).includes(id), true, 'a phone search finds it')
    }
    // Rows added later count on from the patient's largest: the e-mail row 2, the birthday row 3.
    const made = await s.call('POST', '/clients', { name: 'Bo Novak', phone: '+447911123457' })
    const id = made.body.id as string
    t.equal((await s.call('PATCH', `/clients/${id}`, { email: 'bo@example.com' })).status, 200)
    t.equal((await s.call('PATCH', `/clients/${id}`, { birthday: '1980-04-02' })).status, 200)
    const rows = await s.rows(`SELECT seq, kind FROM chart_phone WHERE chart_no = ${id} ORDER BY seq`)
    t.same(rows.map((r) => [Number(r.seq), String(r.kind).trim()]), [[1, 'C'], [2, 'E'], [3, 'B']], 'seq 1, 2, 3 for the patient')
    const got = (await s.call('GET', `/clients/${id}`)).body
    t.same([got.phone, got.email, got.birthday], ['+447911123457', 'bo@example.com', '1980-04-02'], 'every row reads back')
    // The chart made before Ponte keeps its row 1; a new e-mail row is its 2.
    t.equal((await s.call('PATCH', '/clients/1', { email: 'ann@example.com' })).status, 200)
    t.same((await s.rows('SELECT seq FROM chart_phone WHERE chart_no = 1 ORDER BY seq')).map((r) => Number(r.seq)), [1, 2], 'counted per patient')
  })

  t.test(`${dialect}: two PATCHes adding rows to one patient at once take distinct numbers`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping())
    for (let round = 0; round < 3; round++) {
      const made = await s.call('POST', '/clients', { name: `Round ${round}`, phone: '+442079460018' })
      const id = made.body.id as string
      const [mail, born] = await Promise.all([
        s.call('PATCH', `/clients/${id}`, { email: `r${round}@example.com` }),
        s.call('PATCH', `/clients/${id}`, { birthday: '1975-12-31' })
      ])
      t.same([mail.status, born.status], [200, 200], `round ${round}: both PATCHes succeed (${JSON.stringify([made.body, mail.body, born.body])})`)
      const rows = await s.rows(`SELECT seq, kind FROM chart_phone WHERE chart_no = ${id} ORDER BY seq`)
      t.same(rows.map((r) => Number(r.seq)), [1, 2, 3], `round ${round}: distinct numbers 1, 2, 3`)
      t.same(rows.map((r) => String(r.kind).trim()).sort(), ['B', 'E', 'H'], 'nothing lost')
      const got = (await s.call('GET', `/clients/${id}`)).body
      t.same([got.email, got.birthday], [`r${round}@example.com`, '1975-12-31'], 'both read back')
    }
  })

  t.test(`${dialect}: check reads the codes against the kind column`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping())
    const fits = await checkOf(t, s.url, mapping())
    t.notOk(fits.lines.some((l) => l.includes('phoneLine')), 'codes of one character fit CHAR(1)')
    t.ok(fits.ok, `check passes, its write probe included: ${fits.lines.filter((l) => l.startsWith('✗')).join('; ')}`)
    const long = await checkOf(t, s.url, mapping('{ mobile: C, fixedLine: H, otherwise: WORK }', '{ column: kind, in: [C, H, WORK] }'))
    t.ok(long.lines.some((l) => /phoneLine.otherwise: code "WORK" has 4 characters/.test(l)), `a code longer than the column is a problem: ${long.lines.join('\n')}`)
    t.notOk(long.ok, 'and check fails')
  })
}

t.test('a code the phones\' where does not accept is refused at its line', async (t) => {
  const compiled = compileMapping(buildModel(parseMapping(mapping('{ mobile: C, fixedLine: H, otherwise: W }', '{ column: kind, in: [C, H] }'), 'x.yaml')), sqlite)
  const client = compiled.writes.client
  t.ok(isUnsupported(client), 'client writes are refused')
  if (!isUnsupported(client)) return
  t.equal(client.unsupported.path, '/resources/client/write/after/0/set/kind/phoneLine/otherwise')
  t.match(client.unsupported.reason, /kind = "W", which the phones' `where`/)
})

t.test('a key counted per parent needs a column the parent fills', async (t) => {
  const yaml = mapping().replace('key: { generate: max, column: seq, per: chart_no }', 'key: { generate: max, column: seq, per: kind }')
  const client = compileMapping(buildModel(parseMapping(yaml, 'x.yaml')), sqlite).writes.client
  t.ok(isUnsupported(client) && client.unsupported.path === '/resources/client/write/after/0/key/per', 'refused at `per`')
})
