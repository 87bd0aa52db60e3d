// `decimal`: a price kept as Brazilian text (test/helpers/brazil-desk.ts), on every test
// database. Under `decimal: ','` `R$ 1.150,50` reads 1150.5, `250,00` 250, `1.150` 1150; under
// the default dot `1.150` is 1.15 and `1.150,50` does not read. A value that does not read is
// left out of its service (the interface's price is optional), logged once without the value,
// and counted by `check` at the field's line with the first row's id: a warning naming
// `decimal: ','` where the rows are spelt that way, a problem where most rows do not read.
import t from 'tap'
import { Writable } from 'node:stream'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DESK_SCHEMA, deskMapping } from '../helpers/brazil-desk.js'
import { readDecimal } from '../../src/normalise/decimal.js'

const prices = async (call: (m: string, u: string) => Promise<{ status: number, body: any }>): Promise<Record<string, unknown>> => {
  const got = await call('GET', '/services')
  return Object.fromEntries((got.body as Array<{ id: string, price?: number }>).map((s) => [s.id, s.price ?? 'none']))
}

const at = (report: { findings: Array<{ severity: string, path: string, message: string, line?: number }> }, path: string) =>
  report.findings.filter((f) => f.path === path && f.severity !== 'ok')

const PRICE = '/resources/service/fields/price'

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('decimal: \',\' reads Brazilian prices; the default dot leaves them out, logged and checked', async (t) => {
      const comma = deskMapping()
      const s = await scratchOn(t, dialect, DESK_SCHEMA, comma)
      t.same(await prices(s.call), { 1: 1150.5, 2: 250, 3: 1150, 4: 90, 5: 'none', 6: 'none' }, 'R$ 1.150,50, 250,00, 1.150, 90; a text that is no price and NULL have none')
      const one = await s.call('GET', '/services/1')
      t.equal(one.body.price, 1150.5, 'one service by id too')

      const report = await checkOf(t, s.url, comma)
      const said = at(report, PRICE)
      t.same(said.map((f) => f.severity), ['warning'], JSON.stringify(said))
      t.match(said[0]?.message, /^1 of 6 rows hold a `preco` that does not read as a number with the decimal mark `,` \(e\.g\. id 5\): their price is left out$/)
      t.equal(said[0]?.line, comma.split('\n').findIndex((l) => l.includes('price:')) + 1, 'at the field\'s line')
      t.notOk(said[0]?.message.includes('combinar'), 'the value itself is not printed')

      const lines: string[] = []
      const logStream = new Writable({ write (chunk, _e, done) { lines.push(String(chunk)); done() } })
      const dotted = deskMapping({ price: 'preco' })
      const d = await scratchOn(t, dialect, DESK_SCHEMA, dotted, { logStream, logLevel: 'warn' })
      t.same(await prices(d.call), { 1: 'none', 2: 250, 3: 1.15, 4: 90, 5: 'none', 6: 'none' }, 'the default dot: a lone comma still reads, 1.150 is 1.15, 1.150,50 reads nothing')
      await prices(d.call)
      const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.field === 'price')
      t.same(warned.map((l) => [l.resource, l.rows, l.firstId]), [['service', 2, '1']], 'logged once, with the count and the first id')
      t.notOk(lines.some((l) => l.includes('1.150,50') || l.includes('combinar')), 'never the stored value')

      const dot = await checkOf(t, d.url, dotted)
      const hint = at(dot, PRICE)
      t.same(hint.map((f) => f.severity), ['warning'], JSON.stringify(hint))
      t.match(hint[0]?.message, /^2 of 6 rows hold a `preco` that does not read as a number with the decimal mark `\.` \(e\.g\. id 1\): their price is left out; give `decimal: ','`/)

      // Every price spelt the Brazilian way under the default: most rows do not read, the wrong mark.
      await d.rows("UPDATE tratamento SET preco = '1.234,56'")
      const wrong = at(await checkOf(t, d.url, dotted), PRICE)
      t.same(wrong.map((f) => f.severity), ['problem'], JSON.stringify(wrong))
      t.match(wrong[0]?.message, /^6 of 6 rows .*most rows are spelt another way: give `decimal: ','`/)
      const fixed = at(await checkOf(t, d.url, comma), PRICE)
      t.same(fixed, [], 'the same rows under decimal: \',\' raise nothing')
    })
  })
}

t.test('the spellings, mark by mark', async (t) => {
  const comma: Array<[string, number | undefined]> = [['1.150,50', 1150.5], ['R$ 1.150,50', 1150.5], ['R$1.150,50', 1150.5], ['250,00', 250], ['1.150', 1150], ['1150', 1150], ['-3,5', -3.5], ['1.234.567,8', 1234567.8], ['1,150.50', undefined], ['150.50', undefined], ['1.15,50', undefined], ['', undefined], ['a combinar', undefined]]
  for (const [text, n] of comma) t.equal(readDecimal(text, ','), n, `${text} under ','`)
  const dot: Array<[string, number | undefined]> = [['1150.50', 1150.5], ['250,00', 250], ['1.150', 1.15], ['R$ 90', 90], ['1.150,50', undefined], ['1,150.50', undefined]]
  for (const [text, n] of dot) t.equal(readDecimal(text, '.'), n, `${text} under '.'`)
  t.equal(readDecimal(42.5, ','), 42.5, 'a number column reads as it is')
})

t.test('decimal goes on a number field only, at its line', async (t) => {
  const { parseMapping } = await import('../../src/mapping/load.js')
  const { buildModel } = await import('../../src/mapping/model.js')
  const yaml = deskMapping().replace('name: descricao', 'name: { column: descricao, decimal: \',\' }')
  t.throws(() => buildModel(parseMapping(yaml, 'm.yaml')), /m\.yaml:\d+.*fields\/name.*`decimal` goes on a number kept as text/)
})
