// A join whose parent column holds the joined value inside a fixed text (`on: { hour: { column:
// name, prefix: 'P:' } }`), on an OSCAR-like clinic generated in the test
// (test/helpers/join-prefix-clinic.ts), on every test database: days naming a shared template as
// `P:<name>` offer exactly its slots, as the test works them out from the templates itself;
// booking on them is stored (read back from the table) and off them is a 409, nothing written;
// a `first` join with a prefix and a suffix and a `collect` with a prefix read the patient's
// chart and phones, never a row keyed by the whole text; `ponte check` counts the days whose
// template cannot be found and reports a misspelt column of the pair at its line. Refused at
// load, at their line: an empty prefix, and a prefix on a join a write goes through.
import t from 'tap'
import { testDialects, phonesOf } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'
import {
  CLOSED, DAY1, DAY2, DAY3, DAYS, HELD, PREFIX, SHARED_JOIN, namedTemplate, joinPrefixMapping, joinPrefixSchema, type Template
} from '../helpers/join-prefix-clinic.js'

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))

/**
 * The slots a provider's day offers, worked out here: the active day's row, the template its
 * `hour` names as OSCAR reads it, each character not closed one slot of `per` minutes, less
 * the times taken.
 */
function expected (provider: string, day: string, taken: string[] = []): { hour: string, endHour: string }[] {
  const row = DAYS.find(([, d, p, , status]) => d === day && p === provider && status === 'A')
  const template: Template | undefined = row === undefined ? undefined : namedTemplate(provider, row[3])
  if (!template) return []
  const out: { hour: string, endHour: string }[] = []
  for (const [from, to, code] of template.runs) {
    if (CLOSED.includes(code)) continue
    for (let m = minutes(from); m < minutes(to); m += template.per) out.push({ hour: hhmm(m), endHour: hhmm(m + template.per) })
  }
  return out.filter((s) => !taken.includes(s.hour)).sort((a, b) => a.hour.localeCompare(b.hour))
}

async function offered (s: ServerScratch, day: string, professional: string): Promise<{ hour: string, endHour: string }[]> {
  const r = await s.call('GET', `/availability?start=${day}&end=${day}&professional=${professional}`)
  if (r.status !== 200) throw new Error(`/availability → ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.map((x: { hour: string, endHour: string }) => ({ hour: x.hour, endHour: x.endHour }))
}

const count = async (s: ServerScratch): Promise<number> => Number((await s.rows('SELECT COUNT(*) AS n FROM appointment'))[0].n)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, joinPrefixSchema(), joinPrefixMapping())

    t.test('days naming `P:<name>` offer exactly the shared template\'s slots; own names stay own', async (t) => {
      const shared = await offered(s, DAY1, '202')
      t.same(shared, expected('202', DAY1, [HELD.hour]), 'P:FullDay: 08:00–12:00 and 13:00–16:00 by 15 minutes, less the lunch `L` and the appointment at 10:00')
      t.ok(shared.length > 20, `${shared.length} slots`)
      t.same(await offered(s, DAY2, '201'), expected('201', DAY2), 'P:AMonly: the 30-minute template, not the one called `P:AMonly`')
      t.notOk((await offered(s, DAY2, '201')).some((x) => x.hour >= '15:00'), 'the template named by the whole text is never read')
      t.same(await offered(s, DAY1, '201'), expected('201', DAY1), 'Clinic: 201\'s own, not the shared one of the same name')
      t.same(await offered(s, DAY2, '202'), [], 'Clinic without the prefix, for a provider with no own `Clinic`: nothing')
      t.same(await offered(s, DAY3, '202'), [], 'P:NoSuch: nothing')
      t.same(await offered(s, DAY3, '201'), [], 'a deleted day: nothing')
    })

    t.test('booking on a `P:` day is stored and read back; off its slots it is a 409, nothing written', async (t) => {
      const before = await count(s)
      const booked = await s.call('POST', '/appointments', { date: DAY1, hour: '13:15', client: '2', professional: '202' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same([booked.body.hour, booked.body.endHour], ['13:15', '13:30'], 'answered with the slot')
      const [row] = await s.rows(`SELECT provider_no, appointment_date, start_time, end_time, demographic_no, status FROM appointment WHERE appointment_no = ${Number(booked.body.id)}`)
      t.same([String(row.provider_no).trim(), String(row.start_time).slice(0, 5), String(row.end_time).slice(0, 5), Number(row.demographic_no), String(row.status).trim()],
        ['202', '13:15', '13:30', 2, 't'], 'stored: 202, 13:15–13:30, patient 2, waiting')
      t.match(row.appointment_date instanceof Date ? row.appointment_date.toISOString() : String(row.appointment_date), new RegExp(`^${DAY1}`), 'on the day booked')
      t.same(await offered(s, DAY1, '202'), expected('202', DAY1, [HELD.hour, '13:15']), 'no longer offered; every other slot still is')

      const half = await s.call('POST', '/appointments', { date: DAY2, hour: '09:30', client: '1', professional: '201' })
      t.equal(half.status, 200, JSON.stringify(half.body))
      t.equal(half.body.endHour, '10:00', 'a 30-minute slot of P:AMonly')
      const [stored] = await s.rows(`SELECT start_time, end_time FROM appointment WHERE appointment_no = ${Number(half.body.id)}`)
      t.same([String(stored.start_time).slice(0, 5), String(stored.end_time).slice(0, 5)], ['09:30', '10:00'], 'stored 09:30–10:00')

      for (const [day, hour, professional, why] of [
        [DAY1, '12:15', '202', 'the lunch `L` of P:FullDay'],
        [DAY1, HELD.hour, '202', 'the slot already taken'],
        [DAY2, '15:00', '201', 'a slot only the template called `P:AMonly` has'],
        [DAY2, '14:00', '202', 'a day naming `Clinic`, which 202 has no own template of'],
        [DAY3, '09:00', '202', 'P:NoSuch']
      ]) {
        const refused = await s.call('POST', '/appointments', { date: day, hour, client: '3', professional })
        t.equal(refused.status, 409, `${why}: ${JSON.stringify(refused.body)}`)
      }
      t.equal(await count(s), before + 2, 'only the two bookings were written')
    })

    t.test('a `first` join with a prefix and a suffix, and a `collect` with a prefix, read the patient\'s rows', async (t) => {
      const emma = await s.call('GET', '/clients/1')
      t.equal(emma.status, 200, JSON.stringify(emma.body))
      t.equal(emma.body.email, 'emma@example.ca', 'CH-7001-A: the latest chart row of 7001, not the row keyed `CH-7001-A`')
      t.same(phonesOf(emma.body).sort(), ['+19055550131', '+19055550132'], 'ON:1234: the phones kept under 1234, not the one under `ON:1234`')
      const liam = await s.call('GET', '/clients/2')
      t.equal(liam.body.email, 'liam@example.ca')
      t.same(phonesOf(liam.body), [], 'no phone kept under 5678')
      const noah = await s.call('GET', '/clients/3')
      t.equal(noah.status, 200, 'a NULL chart_no joins nothing and still reads')
      t.notOk(noah.body.email, 'no e-mail')
    })

    t.test('check counts the days whose template is not found, and reports a misspelt column of a pair at its line', async (t) => {
      const report = await checkOf(t, s.url, joinPrefixMapping())
      const days = report.lines.filter((l) => l.includes('availability dated:'))
      t.equal(days.length, 1, report.lines.join('\n'))
      t.match(days[0], /2 of 5 rows of `scheduledate` cannot be read .*e\.g\. id 4: they offer nothing/, '`Clinic` for 202 and P:NoSuch; the P: days are read')
      t.same(report.findings.filter((f) => f.severity === 'problem' && !f.message.includes('scheduledate')).map((f) => f.message), [], 'no other problem')
      const advice = report.findings.find((f) => f.path === '/availability/dated/joins/shared/on')
      t.match(advice?.message ?? '', /column `name` of table `scheduletemplate` has no index: each row joined through `shared` would read the whole table; create one: .*\(.name.\)/,
        'the key (provider_no, name) does not serve the shared join: check advises an index on the joined column, compared bare')

      const misspelt = joinPrefixMapping(SHARED_JOIN.replace('column: name', 'column: nmae'))
      const line = misspelt.split('\n').findIndex((l) => l.includes('nmae')) + 1
      const bad = await checkOf(t, s.url, misspelt)
      const found = bad.findings.find((f) => f.severity === 'problem' && f.message.includes('nmae'))
      t.ok(found, bad.lines.join('\n'))
      t.equal(found?.line, line, 'at the pair\'s line')
      t.match(found?.path ?? '', /^\/availability\/dated\/joins\/shared\/on\/hour/)
      t.notOk(bad.ok, 'check does not pass')
    })
  })
}

t.test('refused at load, at its line: an empty prefix, and a prefix on a join a write goes through', async (t) => {
  const refused = (yaml: string): string => {
    try {
      buildModel(parseMapping(yaml, 'm.yaml'))
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const lineOf = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1
  t.equal(refused(joinPrefixMapping()), 'accepted')

  const empty = joinPrefixMapping(SHARED_JOIN.replace(`prefix: '${PREFIX}'`, "prefix: ''"))
  t.match(refused(empty), new RegExp(`m\\.yaml:${lineOf(empty, "prefix: ''")}.*availability/dated/joins/shared/on/hour/prefix.*empty prefix`))

  const afterRow = joinPrefixMapping(undefined, '    write:\n      key: { generate: max }\n      after:\n        - join: chart\n          set: { email: { value: x } }\n')
  t.match(refused(afterRow), new RegExp(`m\\.yaml:${lineOf(afterRow, "prefix: 'CH-'")}.*resources/client/joins/chart/on/chart_no/prefix.*write/after/0 writes through this join`))

  const phoneRow = joinPrefixMapping(undefined, '    write:\n      key: { generate: max }\n      after:\n        - phones: 0\n')
  t.match(refused(phoneRow), new RegExp(`m\\.yaml:${lineOf(phoneRow, "prefix: 'ON:'")}.*resources/client/phones/0/collect/on/hin/prefix`))

  const firstOf = joinPrefixMapping().replace('      client: demographic_no\n', '      client: demographic_no\n      location: site.id\n')
    .replace('    write:\n      key: { generate: max }\n', "    joins:\n      site: { table: site, on: { location: { column: code, suffix: '/ON' } } }\n    write:\n      key: { generate: max }\n      refs: { location: { firstOf: site } }\n")
  t.match(refused(firstOf), new RegExp(`m\\.yaml:${lineOf(firstOf, "suffix: '/ON'")}.*appointment/joins/site/on/location/suffix.*firstOf writes through this join`))
})
