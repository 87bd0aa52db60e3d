// Issue 27 items 10 and 27, the roles of a name's columns, on a clinic generated in the test
// (a person row with given/middle/family columns, and an OpenMRS-like name row of five), on
// every test database: `split.family` fills the family column before a secondary last one;
// `particles` begins the family at a particle and takes every word after it (`de Souza e
// Silva`), and keeps `Filho`/`Neto` with the word before (a `Neto` after a given name alone is
// the surname: `Ana Paula` · `Neto`); `split.alone` puts a one-word name in the family column
// (or both); `split.middle` writes the middle names into a column the template does not read;
// `split.familyPrefix` puts the family's leading particles in their own column (OpenMRS's
// `family_name_prefix`). Each through POST and PATCH, read from the table and through GET;
// `check` warns where a secondary last column would take the family name, or a prefix column
// given names; misnamed columns are refused at load.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { NAME_ROLES_SCHEMA as SCHEMA, nameRolesMapping as mapping, OPENMRS_NAME as OPENMRS, OPENMRS_PREFIX_NAME as PREFIXED } from '../helpers/name-roles.js'

const blank = (x: unknown): string => x === null || x === undefined ? '' : String(x)
const person = async (s: ServerScratch, id: string): Promise<string[]> =>
  (await s.rows(`SELECT nome, meio, sobrenome FROM pessoa WHERE id = ${Number(id)}`)).map((r) => [r.nome, r.meio, r.sobrenome].map(blank))[0]
const nameRow = async (s: ServerScratch, id: string): Promise<string[]> =>
  (await s.rows(`SELECT dado, meio, familia, familia2 FROM pessoa_nome WHERE pessoa_id = ${Number(id)}`)).map((r) => [r.dado, r.meio, r.familia, r.familia2].map(blank))[0]

/** POST then PATCH (of client 1) each name: the columns stored, and the name the answer and GET read. */
async function writes (t: Test, s: ServerScratch, stored: (s: ServerScratch, id: string) => Promise<string[]>,
  cases: Array<[string, string[], string?]>): Promise<void> {
  for (const [name, columns, read = name] of cases) {
    const made = await s.call('POST', '/clients', { name, phone: '+5511987650030' })
    t.equal(made.status, 200, JSON.stringify(made.body))
    t.same(await stored(s, made.body.id), columns, `POST ${name}: the columns`)
    t.equal(made.body.name, read, `POST ${name}: answered as read`)
    t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.name, read, `POST ${name}: GET reads it`)
    const patched = await s.call('PATCH', '/clients/1', { name })
    t.equal(patched.status, 200, JSON.stringify(patched.body))
    t.same(await stored(s, '1'), columns, `PATCH ${name}: the columns`)
    t.equal((await s.call('GET', '/clients/1')).body.name, read, `PATCH ${name}: GET reads it`)
  }
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('split.family: the family column is filled before a secondary last one', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(OPENMRS, true))
      t.equal((await s.call('GET', '/clients/1')).body.name, 'Rita Lee Jones', 'a stored secondary family name is read')
      await writes(t, s, nameRow, [
        ['Carla Dias', ['Carla', '', 'Dias', '']],
        ['Maria das Graças Souza', ['Maria', 'das Graças', 'Souza', '']],
        ['José Antônio da Silva', ['José', 'Antônio', 'da Silva', '']]
      ])
      // A booking's `{ client: family }` copy is the family from its column on.
      const booked = await s.call('POST', '/appointments', { date: '2031-03-04', hour: '09:00', client: '2', professional: 'M1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same((await s.rows(`SELECT familia FROM agenda WHERE id = ${Number(booked.body.id)}`)).map((r) => r.familia), ['Dias'], 'the new client\'s family copied')
      await s.rows("UPDATE pessoa_nome SET familia2 = 'Lima' WHERE pessoa_id = 2")
      const again = await s.call('POST', '/appointments', { date: '2031-03-04', hour: '10:00', client: '2', professional: 'M1' })
      t.equal(again.status, 200, JSON.stringify(again.body))
      t.same((await s.rows(`SELECT familia FROM agenda WHERE id = ${Number(again.body.id)}`)).map((r) => r.familia), ['Dias Lima'], 'with the secondary family after it')
    })

    t.test('split.familyPrefix: the family\'s leading particles go to their own column', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(PREFIXED, true))
      const prefixed = async (s: ServerScratch, id: string): Promise<string[]> =>
        (await s.rows(`SELECT dado, meio, prefixo, familia, familia2 FROM pessoa_nome WHERE pessoa_id = ${Number(id)}`)).map((r) => [r.dado, r.meio, r.prefixo, r.familia, r.familia2].map(blank))[0]
      await writes(t, s, prefixed, [
        ['Maria das Graças de Souza', ['Maria', 'das Graças', 'de', 'Souza', '']],
        ['Maria das Graças de Souza e Silva', ['Maria', 'das Graças', 'de', 'Souza e Silva', '']],
        ['José Carlos de Oliveira Santos', ['José', 'Carlos', 'de', 'Oliveira Santos', '']],
        ['Marie Claire de la Fontaine', ['Marie', 'Claire', 'de la', 'Fontaine', '']],
        ['Ana Paula Souza', ['Ana', 'Paula', '', 'Souza', '']],
        ['João da Silva', ['João', '', 'da', 'Silva', '']]
      ])
      // A booking's `{ client: family }` copy is the family from its prefix on.
      const booked = await s.call('POST', '/appointments', { date: '2031-03-04', hour: '09:00', client: '1', professional: 'M1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same((await s.rows(`SELECT familia FROM agenda WHERE id = ${Number(booked.body.id)}`)).map((r) => r.familia), ['da Silva'], 'the family copied with its particle')
    })

    t.test('particles: a family name begun by a particle takes every word after it', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {sobrenome}', split: particles"))
      await writes(t, s, (s, id) => person(s, id).then((r) => [r[0], r[2]]), [
        ['Maria das Graças de Souza e Silva', ['Maria das Graças', 'de Souza e Silva']],
        ['João da Silva', ['João', 'da Silva']],
        ['José Carlos de Oliveira Santos', ['José Carlos', 'de Oliveira Santos']],
        ['Ana Paula Souza', ['Ana Paula', 'Souza']],
        ['Marie Claire de la Fontaine', ['Marie Claire', 'de la Fontaine']],
        ['Ana Souza e Silva', ['Ana', 'Souza e Silva']]
      ])
    })

    t.test('particles: a closing Filho, Júnior or Neto stays with the family word before it', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {meio} {sobrenome}', split: particles"))
      await writes(t, s, person, [
        ['Carlos E. Nogueira Filho', ['Carlos', 'E.', 'Nogueira Filho']],
        ['João da Silva Neto', ['João', '', 'da Silva Neto']],
        ['Paulo Júnior', ['Paulo', '', 'Júnior']],
        ['Pedro Alves Filho', ['Pedro', '', 'Alves Filho']],
        ['Marcos A. Silva Jr.', ['Marcos', 'A.', 'Silva Jr.']],
        ['Ana Paula Souza Neto', ['Ana', 'Paula', 'Souza Neto']]
      ])
    })

    t.test('particles: a Neto or Sobrinho with fewer than two words before the one it would take is the surname', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {meio} {sobrenome}', split: particles"))
      await writes(t, s, person, [
        ['Ana Paula Neto', ['Ana', 'Paula', 'Neto']],
        ['Luiz Carlos Sobrinho', ['Luiz', 'Carlos', 'Sobrinho']],
        ['Maria Clara Neta', ['Maria', 'Clara', 'Neta']],
        ['Rui Neto', ['Rui', '', 'Neto']]
      ])
    })

    t.test('split.alone: a one-word name goes to the family column, or to both', async (t) => {
      const family = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {sobrenome}', split: { rule: particles, alone: family }"))
      await writes(t, family, (s, id) => person(s, id).then((r) => [r[0], r[2]]), [['5511987650030', ['', '5511987650030']], ['Ana Souza', ['Ana', 'Souza']]])
      const both = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {sobrenome}', split: { alone: both }"))
      await writes(t, both, (s, id) => person(s, id).then((r) => [r[0], r[2]]), [['Pelé', ['Pelé', 'Pelé'], 'Pelé Pelé']])
    })

    t.test('split.middle: the middle names go to a column the template does not read', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping("template: '{nome} {sobrenome}', split: { rule: particles, middle: meio }"))
      await writes(t, s, person, [
        ['Carlos Eduardo Santos', ['Carlos', 'Eduardo', 'Santos'], 'Carlos Santos'],
        ['Maria das Graças Souza', ['Maria', 'das Graças', 'Souza'], 'Maria Souza'],
        ['Rui Barbosa', ['Rui', '', 'Barbosa']]
      ])
      const found = await s.call('GET', `/clients/search?term=${encodeURIComponent('Carlos Santos')}`)
      t.equal(found.status, 200, JSON.stringify(found.body))
      t.ok((found.body as Array<{ name: string }>).some((c) => c.name === 'Carlos Santos'), 'searched by the name as read')
    })

    t.test('check warns where a two-word name would fill the secondary last column, or given names a prefix column', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(OPENMRS, true))
      const planted = await checkOf(t, s.url, mapping("template: '{nm.dado} {nm.meio} {nm.familia} {nm.familia2}', split: particles", true))
      const warned = planted.findings.filter((f) => /secondary/.test(f.message))
      t.equal(warned.length, 1, planted.lines.join('\n'))
      t.equal(warned[0]?.path, '/resources/client/fields/name/template')
      t.match(warned[0]?.message, /`nm.familia` '', `nm.familia2` 'Dias'.*give `split: \{ family: nm.familia \}`/)
      const declared = await checkOf(t, s.url, mapping(OPENMRS, true))
      t.same(declared.findings.filter((f) => /secondary/.test(f.message)), [], 'quiet once split.family is given')
      t.ok(declared.ok, `check passes the roles: ${declared.lines.join('\n')}`)
      const prefix = await checkOf(t, s.url, mapping("template: '{nm.dado} {nm.meio} {nm.prefixo} {nm.familia} {nm.familia2}', split: { rule: particles, family: nm.familia }", true))
      const given = prefix.findings.filter((f) => /takes given names/.test(f.message))
      t.equal(given.length, 1, prefix.lines.join('\n'))
      t.equal(given[0]?.path, '/resources/client/fields/name/template')
      t.match(given[0]?.message, /`nm.meio` 'das', `nm.prefixo` 'Graças', `nm.familia` 'de Souza'.*give `split: \{ familyPrefix: nm.prefixo \}`/)
      const prefixed = await checkOf(t, s.url, mapping(PREFIXED, true))
      t.same(prefixed.findings.filter((f) => /takes given names/.test(f.message)), [], 'quiet once familyPrefix is given')
      t.ok(prefixed.ok, `check passes the prefix role: ${prefixed.lines.join('\n')}`)
      const middle = await checkOf(t, s.url, mapping("template: '{nome} {sobrenome}', split: { rule: particles, middle: meio, alone: both }"))
      t.ok(middle.ok, `check passes a write-only middle and a lone word written twice: ${middle.lines.join('\n')}`)
    })
  })
}

t.test('split names columns of its template, refused at their place otherwise', async (t) => {
  const refused = (name: string): string => {
    try {
      compileMapping(buildModel(parseMapping(mapping(name), 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  t.match(refused("template: '{nome} {sobrenome}', split: { family: apelido }"), /fields\/name\/split\/family.*`family` names a column of the template after the given name's \(one of `sobrenome`\)/)
  t.match(refused("template: '{nome} {sobrenome}', split: { family: nome }"), /split\/family/)
  t.match(refused("template: '{nome} {sobrenome}', split: { middle: sobrenome }"), /split\/middle.*a column the template does not read/)
  t.match(refused("template: '{nome} {sobrenome}', split: { rule: middle }"), /split/)
  // One column: the given names would go to the middle column and the family to the only one.
  t.match(refused("template: '{nome}', split: { middle: meio }"), /split\/middle.*a name template of at least two columns/)
  t.match(refused('column: nome, split: { rule: particles, middle: meio }'), /`split` goes on a client.s name written through a template/)
  t.match(refused("template: '{nome} {meio} {sobrenome}', split: { familyPrefix: nome }"), /split\/familyPrefix.*the template's column just before the family's \(`meio`\)/)
  t.match(refused("template: '{nm.dado} {nm.meio} {nm.prefixo} {nm.familia} {nm.familia2}', split: { familyPrefix: nm.prefixo }"), /split\/familyPrefix.*\(`nm.familia`\)/)
  t.match(refused("template: '{nome} {sobrenome}', split: { familyPrefix: nome }"), /split\/familyPrefix.*three columns or more/)
  t.equal(refused("template: '{nome} {meio} {sobrenome}', split: { rule: lastSpace, family: sobrenome, alone: both }"), 'accepted')
  t.equal(refused("template: '{nome} {meio} {sobrenome}', split: { rule: particles, familyPrefix: meio }"), 'accepted')
})
