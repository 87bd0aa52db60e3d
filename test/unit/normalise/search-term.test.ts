import t from 'tap'
import { classifyTerm, type SearchKind } from '../../../src/normalise/search-term.js'

const ALL: SearchKind[] = ['phone', 'cpf', 'email', 'name']
const BR = { defaultCountry: 'BR' }

t.test('an 11-digit term is both a CPF and a phone', async (t) => {
  t.same(classifyTerm('11987654321', ALL, BR), [
    { kind: 'cpf', value: '11987654321' },
    { kind: 'phone', value: '+5511987654321' },
  ])
  t.same(classifyTerm('11987654321', ['phone'], BR), [{ kind: 'phone', value: '+5511987654321' }])
  t.same(classifyTerm('11987654321', ['cpf'], BR), [{ kind: 'cpf', value: '11987654321' }])
  t.same(classifyTerm('11987654321', ['name', 'email'], BR), [])
})

t.test('CPF-only terms', async (t) => {
  t.same(classifyTerm('123.456.789-09', ALL, BR), [{ kind: 'cpf', value: '12345678909' }])
  // Legacy CPFs with wrong check digits must still be searchable.
  t.same(classifyTerm('123.456.789-00', ALL, BR), [{ kind: 'cpf', value: '12345678900' }])
  t.same(classifyTerm('1234567890', ['cpf'], BR), [], 'a term must spell all 11 digits')
})

t.test('phone-only terms', async (t) => {
  t.same(classifyTerm('+55 11 98765-4321', ALL, BR), [{ kind: 'phone', value: '+5511987654321' }])
  t.same(classifyTerm('(11) 98765-4321', ALL, BR), [{ kind: 'phone', value: '+5511987654321' }])
  t.same(classifyTerm('(11) 3333-4444', ALL, BR), [{ kind: 'phone', value: '+551133334444' }])
  t.same(classifyTerm('98765-4321', ALL, { defaultCountry: 'BR', defaultAreaCode: '11' }), [
    { kind: 'phone', value: '+5511987654321' },
  ])
})

t.test('email and name terms', async (t) => {
  t.same(classifyTerm(' Maria@Example.com ', ALL, BR), [{ kind: 'email', value: 'maria@example.com' }])
  t.same(classifyTerm('JOSÉ  da Silva', ALL, BR), [{ kind: 'name', value: 'jose da silva' }])
  t.same(classifyTerm('Maria 2', ALL, BR), [{ kind: 'name', value: 'maria 2' }])
  t.same(classifyTerm('maria@x.com', ['name', 'phone'], BR), [], 'email disabled')
  t.same(classifyTerm('Maria', ['phone', 'cpf'], BR), [], 'name disabled')
})

t.test('terms that are nothing', async (t) => {
  t.same(classifyTerm('', ALL, BR), [])
  t.same(classifyTerm('   ', ALL, BR), [])
  t.same(classifyTerm('12345', ALL, BR), [])
  t.same(classifyTerm('---', ALL, BR), [])
  t.same(classifyTerm('*', ALL, BR), [])
  t.same(classifyTerm('11987654321', [], BR), [])
})
