// Issue 27 item 8, phones copied into columns of their own format, on a schema generated here
// (test/helpers/phone-copies.ts) and on every test database: a booking writes the booked
// patient's phone into the agenda row with the mapping's mask (a Delphi agenda's
// FONEPACIENTE) and in the registry's own format; POST /clients writes the new number again,
// E.164 and national, beside the typed one in its contact row (Tryton's value_compact), and a
// PATCH leaves that row as it was. Every value is read back from the database. Mapping
// mistakes are refused at load, at their line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { PHONE_COPIES_MAPPING as MAPPING, phoneCopiesSchema } from '../helpers/phone-copies.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const agenda = async (s: ServerScratch, id: string): Promise<Record<string, any>> =>
  (await s.rows(`SELECT cod_pessoa, fone_paciente, fone_contato FROM agenda WHERE cod = ${Number(id)}`))[0]
const contacts = async (s: ServerScratch, person: string): Promise<Array<Record<string, any>>> =>
  await s.rows(`SELECT tipo, valor, valor_compacto, valor_nacional FROM contato WHERE pessoa = ${Number(person)} ORDER BY id`)

// The clinic's own patients: a mobile as the desk typed it, a landline the mobile mask cannot
// spell (written in the national format instead), no phone at all, a foreign mobile (E.164).
const BOOKED = [
  { client: '1', hour: '09:00', masked: '(11) 98765-4321', registry: '+55 11 98765-4321' },
  { client: '2', hour: '09:30', masked: '(11) 3333-4444', registry: '(11) 3333-4444' },
  { client: '3', hour: '10:00', masked: '', registry: null },
  { client: '4', hour: '10:30', masked: '+447911123456', registry: '+447911123456' }
]

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking copies the patient\'s phone in the mapping\'s mask and in the registry\'s format', async (t) => {
      const s = await scratchOn(t, dialect, phoneCopiesSchema(dialect), MAPPING)
      for (const b of BOOKED) {
        const booked = await s.call('POST', '/appointments', { date: '2031-03-04', hour: b.hour, client: b.client, professional: '1' })
        t.equal(booked.status, 200, JSON.stringify(booked.body))
        const row = await agenda(s, booked.body.id)
        t.equal(String(row.cod_pessoa), b.client, 'the row of the client booked')
        t.same([row.fone_paciente, row.fone_contato], [b.masked, b.registry], `client ${b.client}: the copies`)
      }
      const phone = (await s.call('GET', '/clients/1')).body.phone
      t.equal(phone, '+5511987654321', 'the copy is the phone GET /clients answers')
    })

    t.test('POST /clients writes the phone again in its row\'s other columns; PATCH and a booking keep to it', async (t) => {
      const s = await scratchOn(t, dialect, phoneCopiesSchema(dialect), MAPPING)
      const made = await s.call('POST', '/clients', { name: 'Pedro Henrique Alves', phone: '+5511944443333' })
      t.equal(made.status, 200, JSON.stringify(made.body))
      const id = made.body.id as string
      const row = { tipo: 'celular', valor: '+55 11 94444-3333', valor_compacto: '+5511944443333', valor_nacional: '11944443333' }
      t.same(await contacts(s, id), [row], 'the typed number, E.164 and national in one contact row')
      t.equal((await s.call('GET', `/clients/${id}`)).body.phone, '+5511944443333', 'the phone reads back as sent')

      const abroad = await s.call('POST', '/clients', { name: 'Mary Jones', phone: '+447911654321' })
      t.equal(abroad.status, 200, JSON.stringify(abroad.body))
      t.same(await contacts(s, abroad.body.id), [{ tipo: 'celular', valor: '+447911654321', valor_compacto: '+447911654321', valor_nacional: '+447911654321' }], 'a foreign number is kept whole in every column')

      const patched = await s.call('PATCH', `/clients/${id}`, { name: 'Pedro Alves' })
      t.equal(patched.status, 200, JSON.stringify(patched.body))
      t.equal((await s.rows(`SELECT nome FROM pessoa WHERE id = ${Number(id)}`))[0].nome, 'Pedro Alves', 'renamed')
      t.same(await contacts(s, id), [row], 'a PATCH leaves the contact row and its copies as they were')

      const booked = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '09:00', client: id, professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const copy = await agenda(s, booked.body.id)
      t.same([copy.fone_paciente, copy.fone_contato], ['(11) 94444-3333', '+55 11 94444-3333'], 'the booking copies the number the client was registered with')
    })

    t.test('check proves the copies; a mask longer than its column is a problem at its line', async (t) => {
      const s = await scratchOn(t, dialect, phoneCopiesSchema(dialect), MAPPING)
      const clean = await checkOf(t, s.url, MAPPING)
      t.same(clean.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`), [], 'the mapping as written passes check, its write probe included')
      const short = await checkOf(t, s.url, MAPPING.replace('        fone_contato: { client: phone }\n', '        fone_contato: { client: phone }\n        fone_curto: { client: phone, format: \'(##) #####-####\' }\n'))
      const problems = short.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
      t.ok(problems.some((p) => /write\/set\/fone_curto: a phone copied as `\(##\) #####-####` writes 15 characters, but column `fone_curto` holds 10/.test(p)), problems.join('\n'))
    })
  })
}

t.test('mapping mistakes are refused at load, at their line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  t.equal(refused(MAPPING), 'accepted')
  const line = (text: string): number => MAPPING.split('\n').findIndex((l) => l.includes(text)) + 1
  t.match(refused(MAPPING.replace('fone_contato: { client: phone }', 'fone_contato: { phone: e164 }')),
    new RegExp(`m.yaml:${line('fone_contato: { client: phone }')}.*write/set/fone_contato/phone.*only in an \`after\` row of \`phones\``))
  t.match(refused(MAPPING.replace('fone_contato: { client: phone }', 'fone_contato: { client: name, format: e164 }')), /write\/set\/fone_contato\/format.*goes with `client: phone`/)
  t.match(refused(MAPPING.replace('fone_contato: { client: phone }', 'fone_contato: { client: phone, case: upper }')), /write\/set\/fone_contato\/case.*a phone has no letters/)
  t.match(refused(MAPPING.replace("format: '(##) #####-####', otherwise: ''", "format: 'XX-XX'")), /fone_paciente/)
  const noPhones = MAPPING.replace(/ {4}phones:\n.*\n/, '').replace(/ {6}after:\n(.*\n){6}/, '')
  t.match(refused(noPhones), /write\/set\/fone_paciente\/client.*no `phones` mapped/)
  t.match(refused(MAPPING.replace('      key: { generate: max }\n      phoneFormat', '      key: { generate: max }\n      set: { nome_x: { phone: e164 } }\n      phoneFormat')), /client\/write\/set\/nome_x\/phone.*only in an `after` row/)
})
