// An id matches only its canonical form, the same on every resource, filter and dialect:
// '01' is not 1, 'cln-01' and 'CLN-01 ' are not CLN-01. A variant finds nothing (404, or []),
// never another record, and never changes one.
import t from 'tap'
import { findBusyRange, forEachSample, ok, type Test, type TestApp } from '../../helpers/contract.js'
import { scratchInstallation } from '../../helpers/scratch.js'

const q = encodeURIComponent

/** Spellings of an id that are not it: zero-padded, padded with spaces, in another case, signed. */
function variants (id: string): string[] {
  const out = [`0${id}`, `${id} `, ` ${id}`, `00${id}`]
  if (/^\d+$/.test(id)) out.push(`+${id}`, `${id}.0`)
  if (id.toLowerCase() !== id) out.push(id.toLowerCase())
  if (id.toUpperCase() !== id) out.push(id.toUpperCase())
  return out
}

/** 404, or a 400 for a spelling the route refuses outright: never the record. */
async function notFound (t: Test, a: TestApp, url: string): Promise<void> {
  const r = await a.get(url)
  t.ok(r.status === 404 || r.status === 400, `${url} → ${r.status} (not the record)`)
}

/** [], or a 400 for a spelling the route refuses outright: never the record's appointments. */
async function nothing (t: Test, a: TestApp, url: string): Promise<void> {
  const r = await a.get(url)
  t.ok((r.status === 200 && Array.isArray(r.body) && r.body.length === 0) || r.status === 400, `${url} → ${r.status} ${r.status === 200 ? `${r.body.length} items` : ''}`)
}

forEachSample(t, async (t, a) => {
  const range = await findBusyRange(t, a)
  const list = await ok(t, a, `/appointments?start=${range.start}&end=${range.end}`) as any[]
  const sample = list.find((x) => x.client && x.professional && x.location && x.service) ?? list[0]
  const window = `start=${range.start}&end=${range.end}`

  t.test('by id: a variant of an existing id is 404 on every resource', async (t) => {
    const reads: [string, string][] = [['/appointments', sample.id], ['/clients', sample.client?.id]]
    for (const [path, name] of [['/professionals', 'professional'], ['/locations', 'location'], ['/services', 'service'], ['/health-insurances', 'healthInsurance']] as const) {
      const first = (await ok(t, a, path) as any[])[0]
      if (first) reads.push([path, first.id])
      void name
    }
    for (const [path, id] of reads) {
      if (id === undefined) continue
      t.equal((await a.get(`${path}/${q(id)}`)).status, 200, `${path}/${id} → 200`)
      for (const v of variants(id)) await notFound(t, a, `${path}/${q(v)}`)
    }
  })

  t.test('filters: a variant of an id finds no appointment, minimal or not', async (t) => {
    for (const f of ['client', 'professional', 'location', 'service'] as const) {
      const id = sample[f]?.id as string | undefined
      if (id === undefined) continue
      for (const minimal of ['', '&minimal=true']) {
        const exact = await ok(t, a, `/appointments?${window}&${f}=${q(id)}${minimal}`) as any[]
        t.ok(exact.length > 0, `${f}=${id}${minimal}: the appointments of ${id}`)
        for (const v of variants(id)) await nothing(t, a, `/appointments?${window}&${f}=${q(v)}${minimal}`)
      }
    }
  })

  t.test('PATCH /clients/{variant} changes nobody', async (t) => {
    const id = sample.client?.id as string
    const before = await ok(t, a, `/clients/${q(id)}`)
    for (const v of variants(id)) {
      const r = await a.app.inject({ method: 'PATCH', url: `/clients/${q(v)}`, payload: { name: 'Renamed By Variant' }, headers: { authorization: 'Bearer test-key-0123456789abcdef' } })
      t.ok(r.statusCode === 404 || r.statusCode === 400, `PATCH /clients/${v} → ${r.statusCode}`)
    }
    t.same(await ok(t, a, `/clients/${q(id)}`), before, `client ${id} unchanged`)
  })

  t.test('PATCH /appointments/{variant}/state changes nothing', async (t) => {
    const before = await ok(t, a, `/appointments/${q(sample.id)}`)
    for (const v of variants(sample.id)) {
      const r = await a.app.inject({ method: 'PATCH', url: `/appointments/${q(v)}/state`, payload: { state: 'CANCELED' }, headers: { authorization: 'Bearer test-key-0123456789abcdef' } })
      t.ok(r.statusCode === 404 || r.statusCode === 400, `PATCH /appointments/${v}/state → ${r.statusCode}`)
    }
    t.same(await ok(t, a, `/appointments/${q(sample.id)}`), before, `appointment ${sample.id} unchanged`)
  })
})

t.test('northwind-health: text location ids match exactly (CLN-01, not cln-01 nor "CLN-01 ")', async (t) => {
  const { sampleApp } = await import('../../helpers/app.js')
  const a = await sampleApp('mappings/northwind-health.yaml')
  t.teardown(() => a.close())
  const locations = await ok(t, a, '/locations') as any[]
  t.ok(locations.some((l) => l.id === 'CLN-01'), 'CLN-01 is a location')
  t.equal((await a.get('/locations/cln-01')).status, 404)
  const range = await findBusyRange(t, a)
  const window = `start=${range.start}&end=${range.end}`
  const exact = await ok(t, a, `/appointments?${window}&location=CLN-01`) as any[]
  t.ok(exact.length > 0, 'CLN-01 has appointments in the range')
  for (const v of ['cln-01', 'CLN-01 ', 'Cln-01']) await nothing(t, a, `/appointments?${window}&location=${q(v)}`)
})

// SQLite compares text byte for byte; SQL Server's `=` ignores trailing spaces and, under the
// usual collations, case. Columns declared COLLATE NOCASE (case-blind) and COLLATE RTRIM
// (padding-blind) make SQLite's `=` behave as SQL Server's would, so what the SQL finds for
// a variant really comes back, and only the check on what came back can refuse it.
const SCHEMA = `
CREATE TABLE clinics (id TEXT PRIMARY KEY COLLATE NOCASE, name TEXT, street TEXT);
CREATE TABLE doctors (code TEXT PRIMARY KEY COLLATE RTRIM, name TEXT);
CREATE TABLE patients (code TEXT PRIMARY KEY COLLATE NOCASE, name TEXT, mobile TEXT);
CREATE TABLE visits (id INTEGER PRIMARY KEY, starts_at TEXT, status TEXT,
  clinic_id TEXT COLLATE NOCASE, doctor_code TEXT COLLATE RTRIM, patient_code TEXT COLLATE NOCASE);
INSERT INTO clinics VALUES ('CLN-01', 'Centro', 'Rua A, 1'), ('CLN-02  ', 'Norte', 'Rua B, 2');
INSERT INTO doctors VALUES ('DR-1  ', 'Dra. Um'), ('DR-2', 'Dr. Dois');
INSERT INTO patients VALUES ('P-001', 'Ana Lima', '(21) 99876-5432'), ('P-002', 'Bruno Souza', '(21) 99876-0000');
INSERT INTO visits VALUES
  (1, '2026-03-02 09:00:00', 'A', 'CLN-01', 'DR-1  ', 'P-001'),
  (2, '2026-03-02 10:00:00', 'A', 'CLN-01', 'DR-2', 'P-002'),
  (3, '2026-03-03 09:00:00', 'A', 'CLN-02', 'DR-1  ', 'P-001');
`

const MAPPING = `
version: 1
installation: collations
phone: { defaultCountry: BR, defaultAreaCode: '21' }
resources:
  appointment:
    table: visits
    key: id
    start: { datetime: { column: starts_at, format: text } }
    state: { column: status, map: { A: WAITING } }
    refs:
      client: patient_code
      location: clinic_id
      professional: doctor_code
  client:
    table: patients
    key: { column: code, type: text }
    fields: { name: name }
    phones: [mobile]
  location:
    table: clinics
    key: { column: id, type: text }
    fields: { name: name, address: street }
  professional:
    table: doctors
    key: { column: code, type: text }
    fields: { name: name }
relations:
  - { between: [location, client], via: appointment }
`

t.test('case- and padding-blind `=` (as SQL Server\'s): what comes back must carry exactly the requested id', async (t) => {
  const { get, call, raw } = await scratchInstallation(t, SCHEMA, MAPPING)
  const window = 'start=2026-03-01&end=2026-03-31'
  const idsOf = async (url: string) => {
    const r = await get(url)
    t.equal(r.status, 200, `${url} → 200`)
    return (r.body as any[]).map((x) => x.id).sort()
  }
  // The SQL finds CLN-01's visits for 'cln-01' here, as SQL Server would.
  t.equal((raw.prepare("SELECT COUNT(*) AS n FROM visits WHERE clinic_id = 'cln-01'").get() as any).n, 2, 'the column really is case-blind')
  t.equal((raw.prepare("SELECT COUNT(*) AS n FROM visits WHERE doctor_code = 'DR-1'").get() as any).n, 2, 'the column really is padding-blind')

  for (const minimal of ['', '&minimal=true']) {
    t.same(await idsOf(`/appointments?${window}&location=CLN-01${minimal}`), ['1', '2'])
    t.same(await idsOf(`/appointments?${window}&location=cln-01${minimal}`), [], `location=cln-01${minimal}: []`)
    t.same(await idsOf(`/appointments?${window}&client=p-001${minimal}`), [], `client=p-001${minimal}: []`)
    t.same(await idsOf(`/appointments?${window}&client=P-001${minimal}`), ['1', '3'])
    // Stored padded ('DR-1  ', as a CHAR column holds it), found by its canonical id, not by a padded one.
    t.same(await idsOf(`/appointments?${window}&professional=DR-1${minimal}`), ['1', '3'])
    t.same(await idsOf(`/appointments?${window}&professional=${q('DR-1 ')}${minimal}`), [])
    t.same(await idsOf(`/appointments?${window}&location=CLN-02${minimal}`), ['3'])
  }
  t.equal((await get('/clients/P-001')).status, 200)
  t.equal((await get('/clients/p-001')).status, 404, 'GET /clients/p-001: the SQL finds P-001, the check refuses it')
  t.equal((await get('/locations/cln-01')).status, 404)
  t.equal((await get('/locations/CLN-02')).status, 200, 'a padded stored key reads as its canonical id')
  t.equal((await get('/professionals/DR-1')).status, 200)
  t.same(await idsOf('/locations?client=P-001'), ['CLN-01', 'CLN-02'])
  t.same(await idsOf('/locations?client=p-001'), [], 'the client→location relation keeps only rows of exactly that client')

  const patched = await call('PATCH', '/clients/p-001', { name: 'Renamed' })
  t.equal(patched.status, 404, 'PATCH /clients/p-001 → 404')
  t.equal((raw.prepare("SELECT name FROM patients WHERE code = 'P-001'").get() as any).name, 'Ana Lima', 'P-001 not renamed')
})
