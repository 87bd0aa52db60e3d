import t from 'tap'
import { formatCpf, isValidCpf, normaliseCpf } from '../../../src/normalise/cpf.js'

t.test('normaliseCpf reads masked and bare CPFs', async (t) => {
  t.equal(normaliseCpf('123.456.789-09'), '12345678909')
  t.equal(normaliseCpf('12345678909'), '12345678909')
  t.equal(normaliseCpf(' 123 456 789 09 '), '12345678909')
  t.equal(normaliseCpf('123456789/09'), '12345678909')
  t.equal(normaliseCpf(12345678909), '12345678909')
})

t.test('normaliseCpf restores leading zeros lost by numeric columns', async (t) => {
  t.equal(normaliseCpf(1234567890), '01234567890')
  t.equal(normaliseCpf(191), '00000000191')
  t.equal(normaliseCpf(1234567890n), '01234567890')
  t.equal(normaliseCpf('1234567890'), '01234567890', 'BIGINT read as a string')
  t.equal(normaliseCpf('012.345.678-90'), '01234567890')
})

t.test('normaliseCpf checks shape only, not check digits', async (t) => {
  t.equal(normaliseCpf('123.456.789-00'), '12345678900')
  t.notOk(isValidCpf('12345678900'))
})

t.test('normaliseCpf rejects blanks, garbage and wrong lengths', async (t) => {
  for (const raw of [
    '',
    '   ',
    '-',
    '0',
    0,
    '...-',
    'isento',
    '123.456.789-0', // 10 digits but masked: a typo, not a lost zero
    '123.456.789-091',
    '123456789012',
    123456789012,
    -12345678909,
    1234567890.5,
    '12345678909a',
    null,
    undefined,
    new Date(),
  ]) {
    t.equal(normaliseCpf(raw), undefined, String(raw))
  }
})

t.test('isValidCpf checks both check digits', async (t) => {
  t.ok(isValidCpf('12345678909'))
  t.ok(isValidCpf('52998224725'))
  t.ok(isValidCpf('00000000191'))
  t.notOk(isValidCpf('12345678908'), 'wrong second digit')
  t.notOk(isValidCpf('12345678919'), 'wrong first digit')
  t.notOk(isValidCpf('11111111111'), 'all same digit')
  t.notOk(isValidCpf('00000000000'))
  t.notOk(isValidCpf('123.456.789-09'), 'digits only')
  t.notOk(isValidCpf('1234567890'))
})

t.test('formatCpf', async (t) => {
  t.equal(formatCpf('12345678909', 'masked'), '123.456.789-09')
  t.equal(formatCpf('01234567890', 'masked'), '012.345.678-90')
  t.equal(formatCpf('12345678909', 'digits'), '12345678909')
  t.throws(() => formatCpf('1234', 'masked'), TypeError)
})
