// Issue 27 items 9 and 10 on an OSCAR-like `demographic` generated in the test, on every test
// database: a birthday kept as day, month and year in three text columns is written part by
// part in the declared padding and reads back the date sent; a compound Brazilian name, and a
// family name with French, Spanish, Italian, Dutch or German particles, is cut where `split`
// says and reads back as sent; `case: upper` stores it upper case and answers
// it as stored, while without it a database that upper-cases a name is still refused.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { NAMES_SCHEMA, UPPER_TRIGGER, namesMapping, type NamesChoice } from '../helpers/oscar-names.js'

const born = async (s: ServerScratch, id: string): Promise<string[]> => {
  const [row] = await s.rows(`SELECT year_of_birth, month_of_birth, date_of_birth FROM demographic WHERE demographic_no = ${Number(id)}`)
  return [row.year_of_birth, row.month_of_birth, row.date_of_birth]
}
const named = async (s: ServerScratch, id: string): Promise<string[]> => {
  const [row] = await s.rows(`SELECT first_name, last_name FROM demographic WHERE demographic_no = ${Number(id)}`)
  return [row.first_name, row.last_name]
}

const COMPOUND = 'Maria das Graças Silva'
// What each rule stores of the compound names, given then family; the template joins them back.
const SPLITS: Array<[NonNullable<NamesChoice['split']> | undefined, string, [string, string]]> = [
  [undefined, COMPOUND, ['Maria', 'das Graças Silva']],
  ['firstSpace', COMPOUND, ['Maria', 'das Graças Silva']],
  ['lastSpace', COMPOUND, ['Maria das Graças', 'Silva']],
  ['lastSpace', 'João da Silva', ['João da', 'Silva']],
  ['particles', COMPOUND, ['Maria das Graças', 'Silva']],
  ['particles', 'João da Silva', ['João', 'da Silva']],
  ['particles', 'Ana Maria de Souza e Silva', ['Ana Maria', 'de Souza e Silva']],
  ['particles', 'Maria das Graças de Souza e Silva', ['Maria das Graças', 'de Souza e Silva']],
  ['particles', 'Pelé', ['Pelé', '']]
]

// Particles of other languages under `particles` and `case: upper` (a stranger's OSCAR): the
// family starts at the first particle after the first word, in any case.
const ABROAD: Array<[string, [string, string]]> = [
  ['Marie Claire de la Fontaine', ['MARIE CLAIRE', 'DE LA FONTAINE']], // French
  ['Jean du Pont', ['JEAN', 'DU PONT']],
  ['Juan Carlos del Río', ['JUAN CARLOS', 'DEL RÍO']], // Spanish
  ['Ana de los Santos', ['ANA', 'DE LOS SANTOS']],
  ['José Ortega y Gasset', ['JOSÉ', 'ORTEGA Y GASSET']], // a conjunction joins two family names, as `Souza e Silva`
  ['Luca Di Maio', ['LUCA', 'DI MAIO']], // Italian, capitalised
  ['Giovanni della Casa', ['GIOVANNI', 'DELLA CASA']],
  ['Ludwig Mies van der Rohe', ['LUDWIG MIES', 'VAN DER ROHE']], // Dutch
  ['Johannes ten Brink', ['JOHANNES', 'TEN BRINK']],
  ['Ursula von der Leyen', ['URSULA', 'VON DER LEYEN']], // German
  ['Maria das Graças Silva', ['MARIA DAS GRAÇAS', 'SILVA']] // still Portuguese: a given name's particle stays given
]

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a split birthday: POST and PATCH store the three parts padded as declared; GET answers the date', async (t) => {
      for (const [pad, july, december] of [[undefined, ['1988', '07', '04'], ['1988', '12', '25']], [2, ['1988', '07', '04'], ['1988', '12', '25']], [1, ['1988', '7', '4'], ['1988', '12', '25']]] as const) {
        const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ pad }))
        const made = await s.call('POST', '/clients', { name: 'Lucas Pereira', phone: '+5511987650010', birthday: '1988-07-04' })
        t.equal(made.status, 200, JSON.stringify(made.body))
        t.same(await born(s, made.body.id), july, `pad ${String(pad)}: 1988-07-04 stored as the three parts`)
        t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.birthday, '1988-07-04')
        const patched = await s.call('PATCH', `/clients/${made.body.id as string}`, { birthday: '1988-12-25' })
        t.equal(patched.status, 200, JSON.stringify(patched.body))
        t.same(await born(s, made.body.id), december, `pad ${String(pad)}: PATCH stores 1988-12-25`)
        t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.birthday, '1988-12-25')
        t.notOk(String(patched.headers['ponte-ignored-fields'] ?? '').includes('birthday'), 'the birthday is not ignored')
      }
      // An unpadded existing row reads as its date, and a PATCH of another field leaves it be.
      const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ pad: 1 }))
      t.equal((await s.call('GET', '/clients/1')).body.birthday, '1985-07-03')
      t.equal((await s.call('PATCH', '/clients/1', { birthday: '1985-03-07' })).status, 200)
      t.same(await born(s, '1'), ['1985', '3', '7'])
    })

    t.test('check warns when the declared padding is not the stored rows\'', async (t) => {
      const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ pad: 1 }))
      const padded = await checkOf(t, s.url, namesMapping({ pad: 2 }))
      const warned = padded.findings.filter((f) => /stored birthdays keep a month or day below 10/.test(f.message))
      t.equal(warned.length, 1, padded.lines.join('\n'))
      t.match(warned[0]?.message, /2 of 3 stored birthdays .* unpadded .*give `pad: 1`/)
      t.equal(warned[0]?.path, '/resources/client/fields/birthday/pad')
      const unpadded = await checkOf(t, s.url, namesMapping({ pad: 1 }))
      t.same(unpadded.findings.filter((f) => /stored birthdays keep/.test(f.message)), [], 'pad: 1 agrees with the rows')
    })

    t.test('a compound name is cut where `split` says and reads back as sent', async (t) => {
      for (const [split, name, parts] of SPLITS) {
        const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ split }))
        const made = await s.call('POST', '/clients', { name, phone: '+5511987650011' })
        t.equal(made.status, 200, JSON.stringify(made.body))
        t.same(await named(s, made.body.id), parts, `${split ?? 'default'}: ${name}`)
        t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.name, name, 'read back as sent')
        const patched = await s.call('PATCH', '/clients/2', { name })
        t.equal(patched.status, 200, JSON.stringify(patched.body))
        t.same(await named(s, '2'), parts, `${split ?? 'default'}: PATCH stores the same parts`)
      }
    })

    t.test('three columns: the family part goes to the last, a two-word name never to the middle', async (t) => {
      const three = async (s: ServerScratch, id: string): Promise<Array<string | null>> => {
        const [row] = await s.rows(`SELECT first_name, middle_name, last_name FROM demographic WHERE demographic_no = ${Number(id)}`)
        return [row.first_name, row.middle_name === '' ? null : row.middle_name, row.last_name]
      }
      const cases: Array<[NamesChoice['split'], string, Array<string | null>]> = [
        [undefined, 'Test Ponte', ['Test', null, 'Ponte']],
        [undefined, 'Ana Maria Souza', ['Ana', null, 'Maria Souza']],
        ['lastSpace', 'Test Ponte', ['Test', null, 'Ponte']],
        ['lastSpace', 'Ana Maria Souza', ['Ana', 'Maria', 'Souza']],
        ['lastSpace', 'Ana Maria Clara Souza', ['Ana', 'Maria Clara', 'Souza']],
        ['particles', 'Maria das Graças Silva', ['Maria', 'das Graças', 'Silva']]
      ]
      for (const [split, name, parts] of cases) {
        const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ split, middle: true }))
        const made = await s.call('POST', '/clients', { name, phone: '+5511987650014' })
        t.equal(made.status, 200, JSON.stringify(made.body))
        t.same(await three(s, made.body.id), parts, `${split ?? 'default'}: ${name} (a blank middle stored empty or NULL)`)
        t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.name, name, 'read back as sent')
      }
    })

    t.test('case: upper stores the name upper case and answers it as stored', async (t) => {
      const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ split: 'particles', upper: true }))
      const made = await s.call('POST', '/clients', { name: COMPOUND, phone: '+5511987650012' })
      t.equal(made.status, 200, JSON.stringify(made.body))
      t.same(await named(s, made.body.id), ['MARIA DAS GRAÇAS', 'SILVA'])
      t.equal(made.body.name, 'MARIA DAS GRAÇAS SILVA', 'the answer is the name as stored')
      t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.name, 'MARIA DAS GRAÇAS SILVA')
      t.equal((await s.call('PATCH', '/clients/1', { name: 'Marie-Ève da Costa' })).status, 200)
      t.same(await named(s, '1'), ['MARIE-ÈVE', 'DA COSTA'])
    })

    t.test('particles of French, Spanish, Italian, Dutch and German names begin the family name', async (t) => {
      const s = await scratchOn(t, dialect, NAMES_SCHEMA, namesMapping({ split: 'particles', upper: true }))
      for (const [name, parts] of ABROAD) {
        const made = await s.call('POST', '/clients', { name, phone: '+5511987650015' })
        t.equal(made.status, 200, JSON.stringify(made.body))
        t.same(await named(s, made.body.id), parts, `${name}: given, family`)
        t.equal((await s.call('GET', `/clients/${made.body.id as string}`)).body.name, name.toUpperCase(), 'read back as sent, upper case')
        t.equal((await s.call('PATCH', '/clients/2', { name })).status, 200)
        t.same(await named(s, '2'), parts, `${name}: PATCH stores the same parts`)
      }
    })

    t.test('an upper-casing database: accepted with case: upper, refused (501) without it', async (t) => {
      const upper = await scratchOn(t, dialect, NAMES_SCHEMA + UPPER_TRIGGER[dialect], namesMapping({ upper: true }))
      const made = await upper.call('POST', '/clients', { name: 'Gil Park', phone: '+5511987650013' })
      t.equal(made.status, 200, JSON.stringify(made.body))
      t.same(await named(upper, made.body.id), ['GIL', 'PARK'])
      const plain = await scratchOn(t, dialect, NAMES_SCHEMA + UPPER_TRIGGER[dialect], namesMapping())
      const refused = await plain.call('POST', '/clients', { name: 'Gil Park', phone: '+5511987650013' })
      t.equal(refused.status, 501, JSON.stringify(refused.body))
      t.equal((await plain.rows('SELECT COUNT(*) AS n FROM demographic'))[0].n.toString(), '3', 'rolled back')
      t.equal((await plain.call('PATCH', '/clients/1', { name: 'Marie Tremblay' })).status, 501, 'PATCH likewise')
      t.same(await named(plain, '1'), ['MARIE', 'TREMBLAY'])
    })
  })
}

t.test('misplaced keys are refused at their place, saying where they go', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const base = namesMapping()
  t.match(refused(base.replace("birthday: { template: '{date_of_birth}/{month_of_birth}/{year_of_birth}', format: dmy }", 'birthday: { column: date_of_birth, format: dmy, pad: 1 }')),
    /fields\/birthday.*`pad` goes on a client's birthday kept in three columns/)
  t.match(refused(base.replace("'{date_of_birth}/{month_of_birth}/{year_of_birth}', format: dmy", "'{year_of_birth}-{month_of_birth}-{date_of_birth}', format: text, pad: 1")),
    /`pad: 1` writes `7` for July, which reads only as `format: dmy`/)
  t.match(refused(base.replace("name: { template: '{first_name} {last_name}' }\n      birthday", 'name: { column: first_name, split: lastSpace }\n      birthday')),
    /fields\/name.*`split` goes on a client's name written through a template/)
  t.match(refused(base.replace("fields: { name: { template: '{first_name} {last_name}' } }", "fields: { name: { template: '{first_name} {last_name}', case: upper } }")),
    /professional\/fields\/name.*`case` goes on the client's `name`/)
  t.equal(refused(namesMapping({ split: 'particles', upper: true, pad: 1 })), 'accepted')
})
