// Which caller ids can name a record of each integer column type: the edges of each type's
// range, on both sides of the 15 digits past which the check needs a BigInt (ids.ts).
import t from 'tap'
import { matchesType } from '../../../../src/mapping/compile/ids.js'

const EDGES = {
  bit: ['0', '1'],
  smallint: ['-32768', '32767'],
  int: ['-2147483648', '2147483647'],
  bigint: ['-9223372036854775808', '9223372036854775807']
} as const

/** n ± 1 as text, exactly (BigInt arithmetic). */
const beside = (n: string, d: bigint): string => String(BigInt(n) + d)

t.test('each integer type takes its whole range and nothing past it', async (t) => {
  for (const [type, [low, high]] of Object.entries(EDGES)) {
    t.ok(matchesType(low, type as keyof typeof EDGES), `${type}: ${low}`)
    t.ok(matchesType(high, type as keyof typeof EDGES), `${type}: ${high}`)
    t.notOk(matchesType(beside(low, -1n), type as keyof typeof EDGES), `${type}: ${beside(low, -1n)}`)
    t.notOk(matchesType(beside(high, 1n), type as keyof typeof EDGES), `${type}: ${beside(high, 1n)}`)
  }
})

t.test('15 and 16 digits, where the check changes from Number to BigInt', async (t) => {
  t.ok(matchesType('999999999999999', 'bigint'))
  t.ok(matchesType('-999999999999999', 'bigint'))
  t.notOk(matchesType('999999999999999', 'int'))
  t.notOk(matchesType('9007199254740993', 'int'))
  t.notOk(matchesType('99999999999999999999', 'bigint'), '20 digits')
})

t.test('only canonical integers: no padding, sign on zero, plus or spaces', async (t) => {
  for (const id of ['01', '-0', '+1', ' 1', '1 ', '1.0', '1e3', '0x10', '', '٣']) t.notOk(matchesType(id, 'int'), JSON.stringify(id))
})
