// The spellings a phone or CPF search looks up (issue 13), and what `check` counts as found.
import t from 'tap'
import { phoneProbes, probesFind, PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS, toE164 } from '../../../src/normalise/phone.js'
import { cpfProbes } from '../../../src/normalise/cpf.js'
import { prefixArgs } from '../../../src/sql/dialect.js'

const SP = { defaultCountry: 'BR', defaultAreaCode: '11' }

t.test('every usual spelling of a mobile, its old 8-digit form, with and without area code', async (t) => {
  const probes = phoneProbes('+5511987654321', SP)
  t.ok(probes.exact.length <= PHONE_EXACT_SLOTS && probes.prefixes.length <= PHONE_PREFIX_SLOTS, 'fits the statement')
  for (const stored of ['11987654321', '+5511987654321', '5511987654321', '011987654321', '(11) 98765-4321', '(11)98765-4321',
    '11 98765 4321', '11 98765-4321', '+55 11 98765-4321', '+55 (11) 98765-4321', '98765-4321', '987654321', '(11) 9 8765-4321',
    '(11) 8765-4321', '1187654321', '8765-4321', '(11) 98765-4321 ramal 2', '(11) 98765-4321      ']) {
    t.equal(toE164(stored, SP), '+5511987654321', `${stored} reads as the number`)
    t.ok(probesFind(stored, probes, false), `${stored} is probed`)
  }
  t.notOk(probesFind('11.98765.4321', probes, false), 'an unforeseen spelling is not (check reports it)')
  t.notOk(probesFind('+55 11 98765-4321 ', { exact: ['+55 11 98765-4321'], prefixes: [] }, false), 'padding counts where = counts it')
  t.ok(probesFind('+55 11 98765-4321 ', { exact: ['+55 11 98765-4321'], prefixes: [] }, true), 'not where = ignores it')
})

t.test('no area code only for the default one; no ninth-digit twin for a landline', async (t) => {
  const other = phoneProbes('+552133334444', SP)
  t.notOk(other.exact.includes('33334444') || other.prefixes.includes('3333-4444'), 'a Rio number has no local form in São Paulo')
  t.notOk(other.exact.some((s) => s.includes('933334444')), 'landlines have no twin')
  t.ok(other.prefixes.includes('(21) 3333-4444'))
})

t.test('foreign numbers, CPFs and the bound prefix forms', async (t) => {
  const us = phoneProbes('+13054135791', SP)
  for (const stored of ['+13054135791', '+1 (305) 413-5791', '+1 305-413-5791', '+1 305 413 5791']) t.ok(probesFind(stored, us, false), stored)
  const cpf = cpfProbes('07140149828')
  for (const stored of ['071.401.498-28', '07140149828', '07140149828   ', '7140149828']) t.ok(probesFind(stored, cpf, false), stored)
  t.same(cpfProbes('00000000191').prefixes, ['000.000.001-91', '00000000191'], 'no three-digit prefix for a CPF of zeros')
  t.same(prefixArgs('(11) 3333-4444'), { like: '(11) 3333-4444%', low: '(11) 3333-4444', high: '(11) 3333-4445' })
  t.throws(() => prefixArgs('11%'), 'a pattern character is refused')
})
