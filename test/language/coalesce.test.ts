// Sources compose (issue 9, item 3): a coalesce of templates, rules and collected rows, a rule
// whose outcome is any value (`then`), minutes up to a coalesce. Reads (readers) and filters
// (SQL) must agree, on every dialect; a composed value with no obvious column is never written.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { composeInstallation, COMPOSE_MAPPING } from '../helpers/compose-installation.js'

const names = (list: any[]): Record<string, string> => Object.fromEntries(list.map((x) => [x.id, x.name]))
const searchIds = async (get: (u: string) => Promise<{ status: number, body: any }>, term: string): Promise<string[]> => {
  const r = await get(`/clients/search?term=${encodeURIComponent(term)}`)
  if (r.status !== 200) throw new Error(`search ${term}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.map((c: any) => c.id).sort()
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const { get, call } = await composeInstallation(t, dialect)

    t.test('a client\'s name: the current name row, else the social name asked for, else the registered one', async (t) => {
      const { status, body } = await get('/clients?limit=50')
      t.equal(status, 200)
      t.same(names(body), {
        1: 'Lima, Ana', // the current name row (the old one never shows)
        2: 'Kai', // no name row; asked for the social name
        3: 'Beatriz Rocha', // a social name on file, not asked for
        4: 'Dora Alves', // a current name row of blanks is blank: the template does not read ', '
        5: 'Eva Nunes' // asked for a social name that is blank: the registered one
      })
      t.equal((await get('/clients/4')).body.name, 'Dora Alves', 'details agree with the list')
    })

    // Search is by the whole name: SQL prefilters on the composed value, the reader confirms.
    t.test('search by name filters in SQL on the same composed value', async (t) => {
      t.same(await searchIds(get, 'Lima, Ana'), ['1'], 'the template from the name row')
      t.same(await searchIds(get, 'Ana Registered Lima'), [], 'a name that is not shown is not found')
      t.same(await searchIds(get, 'Kai'), ['2'], 'the social name, through rules and a nested coalesce')
      t.same(await searchIds(get, 'Carlos Souza'), [], 'the registered name of someone using a social name is not their name')
      t.same(await searchIds(get, 'Bia'), [], 'a social name not asked for is not the name')
      t.same(await searchIds(get, 'Dora Alves'), ['4'], 'found although a blank name row comes first: SQL skips the blank template too')
      t.same(await searchIds(get, 'Eva Nunes'), ['5'])
      for (const c of (await get('/clients?limit=50')).body) {
        t.ok((await searchIds(get, c.name)).includes(c.id), `searching "${c.name}" finds client ${c.id}`)
      }
    })

    t.test('an e-mail: the first not blank contact row, else the legacy column; search agrees', async (t) => {
      const emails = Object.fromEntries((await get('/clients?limit=50')).body.map((c: any) => [c.id, c.email]))
      t.same([emails[1], emails[2], emails[3]], ['ana@aurora.test', 'kai@legacy.test', undefined])
      t.same(await searchIds(get, 'ana@aurora.test'), ['1'], 'SQL takes the first not blank row too')
      t.same(await searchIds(get, 'ana.old@aurora.test'), [], 'a later row is not the e-mail')
      t.same(await searchIds(get, 'ana.legacy@aurora.test'), [], 'the legacy column only when there is no row')
      t.same(await searchIds(get, 'kai@legacy.test'), ['2'])
    })

    t.test('a professional\'s name: the person\'s name, else the legacy column', async (t) => {
      t.same(names((await get('/professionals')).body), { 1: 'Teresa Aliaga', 2: 'Dr. Legacy Only', 3: 'Lic. Blank Person' })
    })

    t.test('a room inherits its parent\'s whole address', async (t) => {
      const rooms = Object.fromEntries((await get('/locations')).body.map((l: any) => [l.id, [l.address, l.city]]))
      t.same(rooms, {
        1: ['Rua das Flores 10, Curitiba', 'Curitiba'],
        2: ['Rua das Flores 10, Curitiba', 'Curitiba'], // none of its own
        3: ['Av. Brasil 99, Curitiba', 'Curitiba']
      })
    })

    t.test('appointments: the substitute of a transferred visit, its length up to its end else its booked end', async (t) => {
      const { status, body } = await get('/appointments?start=2027-05-03&end=2027-05-04')
      t.equal(status, 200)
      const byId = Object.fromEntries(body.map((a: any) => [a.id, [a.professional.id, a.hour, a.endHour]]))
      t.same(byId, {
        1: ['1', '09:00', '09:30'], // ends given: booked_until ignored
        2: ['2', '10:00', '10:45'], // transferred: the substitute; no end, so the booked end
        3: ['2', '14:00', undefined],
        4: ['3', '15:00', '15:40'] // a substitute named but not transferred: still its own professional
      })
      const withTwo = (await get('/appointments?start=2027-05-03&end=2027-05-04&professional=2')).body.map((a: any) => a.id).sort()
      t.same(withTwo, ['2', '3'], 'the professional filter (SQL) agrees with what is read')
      const withOne = (await get('/appointments?start=2027-05-03&end=2027-05-04&professional=1')).body.map((a: any) => a.id)
      t.same(withOne, ['1'], 'the transferred visit is no longer the original professional\'s')
    })

    t.test('a composed name with no obvious column is not written: 501 naming it, nothing changed', async (t) => {
      const patched = await call('PATCH', '/clients/3', { name: 'Beatriz Nova' })
      t.equal(patched.status, 501, JSON.stringify(patched.body))
      t.match(patched.body.detail, /\bname\b/, 'names the field')
      t.equal((await get('/clients/3')).body.name, 'Beatriz Rocha', 'nothing changed')
      const created = await call('POST', '/clients', { name: 'Nova Pessoa', phone: '+5541987654321' })
      t.equal(created.status, 501, JSON.stringify(created.body))
      t.equal((await get('/clients?limit=50')).body.length, 5, 'no client created')
    })
  })
}

t.test('the mapping has no sql escape hatch', async (t) => {
  t.notMatch(COMPOSE_MAPPING, /\bsql:/)
})
