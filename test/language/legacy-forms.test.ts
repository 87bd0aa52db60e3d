// Issue 27, the second stranger's defects, on a schema generated here (test/helpers/legacy-forms.ts:
// a patient hanging from a party, CPF and e-mail as kind rows keyed by that party, dd/mm/yyyy
// text dates and stamps, a BOOLEAN `active`), on every test database: a CPF in a child row
// written on POST, PATCH and PATCH adding the row; an e-mail row added on PATCH hanging from
// the party, not the patient's id; dd/mm/yyyy dated hours and leave cut from /availability
// and refusing a booking; `now:` stamps in the column's form; `trueValues: [true]` on a
// boolean; `ponte check` passing the mapping and reporting, at their lines, a flag reading
// every professional disabled and a stamp spelt unlike the column's rows.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DAY, ENABLED_LINE, LEGACY_FORMS_MAPPING, LEGACY_FORMS_SCHEMA, SINCE_LINE } from '../helpers/legacy-forms.js'

const DMY = /^\d{2}\/\d{2}\/\d{4}$/
const DMY_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/
const hours = (body: Array<{ hour: string }>): string[] => body.map((x) => x.hour)

async function identifiers (s: ServerScratch, party: number): Promise<string[]> {
  const rows = await s.rows(`SELECT id_type, code FROM identifier WHERE party = ${party} ORDER BY id_type`)
  return rows.map((r) => `${String(r.id_type)}=${String(r.code)}`)
}

async function contacts (s: ServerScratch, party: number): Promise<string[]> {
  const rows = await s.rows(`SELECT c_type, c_value FROM contact WHERE party = ${party} ORDER BY c_type`)
  return rows.map((r) => `${String(r.c_type)}=${String(r.c_value)}`)
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a CPF and an e-mail kept in party rows: POST, PATCH, PATCH adding the row, read back', async (t) => {
      const s = await scratchOn(t, dialect, LEGACY_FORMS_SCHEMA, LEGACY_FORMS_MAPPING)
      const created = await s.call('POST', '/clients', { name: 'Dora Mendes', phone: '+5511987650009', cpf: '111.444.777-35', email: 'dora@example.com' })
      t.equal(created.status, 200, JSON.stringify(created.body))
      t.equal(created.headers['ponte-ignored-fields'], undefined, 'nothing ignored')
      const [row] = await s.rows(`SELECT party, since, changed FROM patient WHERE pat_id = ${Number(created.body.id)}`)
      t.not(Number(row.party), Number(created.body.id), 'the patient hangs from a new party of its own')
      t.same(await identifiers(s, Number(row.party)), ['br_cpf=111.444.777-35'], 'the CPF row, masked, with its kind')
      t.same(await contacts(s, Number(row.party)), ['email=dora@example.com'], 'the e-mail row, with its kind')
      t.match(String(row.since), DMY, 'the registration stamp spelt dd/mm/yyyy as the clinic\'s rows')
      const read = await s.call('GET', `/clients/${String(created.body.id)}`)
      t.equal(read.body.cpf, '11144477735')
      t.equal(read.body.email, 'dora@example.com')

      // Client 2 has neither row: each PATCH adds it, hanging from party 102 (not patient 2).
      const cpf = await s.call('PATCH', '/clients/2', { cpf: '52998224725' })
      t.equal(cpf.status, 200, JSON.stringify(cpf.body))
      t.same(await identifiers(s, 102), ['br_cpf=529.982.247-25', 'rg=87654321'], 'a CPF row added to party 102, the RG untouched')
      t.same(await identifiers(s, 2), [], 'nothing hangs from the patient\'s own id')
      const mail = await s.call('PATCH', '/clients/2', { email: 'bruno@example.com' })
      t.equal(mail.status, 200, JSON.stringify(mail.body))
      t.same(await contacts(s, 102), ['email=bruno@example.com', 'fax=1133334444'], 'an e-mail row added to party 102')
      t.same(await contacts(s, 2), [], 'nothing hangs from the patient\'s own id')
      const got = await s.call('GET', '/clients/2')
      t.equal(got.body.cpf, '52998224725')
      t.equal(got.body.email, 'bruno@example.com')
      t.match(String((await s.rows('SELECT changed FROM patient WHERE pat_id = 2'))[0].changed), DMY_TIME, 'the change stamp spelt dd/mm/yyyy hh:mm:ss')

      // Client 1 has a CPF row: PATCH updates it, and only it.
      const moved = await s.call('PATCH', '/clients/1', { cpf: '11144477735', email: 'ana.souza@example.com' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.same(await identifiers(s, 101), ['br_cpf=111.444.777-35', 'rg=12345678'])
      t.same(await contacts(s, 101), ['email=ana.souza@example.com'])
    })

    t.test('dd/mm/yyyy dated hours and leave; a boolean `active` read as its trueValues say', async (t) => {
      const s = await scratchOn(t, dialect, LEGACY_FORMS_SCHEMA, LEGACY_FORMS_MAPPING)
      const enabled = await s.call('GET', '/professionals?enabled=true')
      t.same(enabled.body.map((p: { id: string }) => p.id).sort(), ['1', '2'], 'the two active professionals are enabled')
      const disabled = await s.call('GET', '/professionals?enabled=false')
      t.same(disabled.body.map((p: { id: string }) => p.id), ['3'])

      const one = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=1`)
      t.equal(one.status, 200, JSON.stringify(one.body))
      t.same(hours(one.body), ['08:00', '08:30', '09:00', '09:30', '11:00', '11:30'], '10:00–11:00 is blocked on 03/03/2031')
      const nextYear = await s.call('GET', '/availability?start=2031-03-04&end=2031-03-04&professional=1')
      t.equal(nextYear.body.length, 8, 'a block on 04/03/2030 does not block 04/03/2031')
      const two = await s.call('GET', `/availability?start=${DAY}&end=2031-03-05&professional=2`)
      t.same(two.body.map((x: { date: string, hour: string }) => `${x.date} ${x.hour}`), [`${DAY} 14:00`, `${DAY} 14:30`],
        'dated 03/03 hours less the 15:00–16:00 leave; 04/03 on leave all day; 03/04 is April')

      const blocked = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1' })
      t.equal(blocked.status, 409, JSON.stringify(blocked.body))
      t.equal((await s.rows('SELECT COUNT(*) AS n FROM agenda'))[0].n.toString(), '2', 'nothing written')
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const [row] = await s.rows(`SELECT dia, hora, incl FROM agenda WHERE ag_id = ${Number(booked.body.id)}`)
      t.equal(row.dia, '03/03/2031')
      t.match(String(row.incl), DMY_TIME, 'the insertion stamp spelt as the clinic\'s rows')
    })

    t.test('check passes the mapping; a flag reading all disabled and a stamp in another form are problems at their lines', async (t) => {
      const s = await scratchOn(t, dialect, LEGACY_FORMS_SCHEMA, LEGACY_FORMS_MAPPING)
      const report = await checkOf(t, s.url, LEGACY_FORMS_MAPPING)
      const said = report.findings.filter((f) => f.severity !== 'ok').map((f) => `${f.severity} ${f.path}: ${f.message}`)
      t.same(said.filter((x) => x.startsWith('problem')), [], report.lines.join('\n'))
      t.notOk(said.some((x) => /cpf is read from something Ponte cannot write/.test(x)), 'the CPF row is writable')

      const planted = LEGACY_FORMS_MAPPING.replace(ENABLED_LINE, '    enabled: { column: active, trueValues: [2] }').replace(SINCE_LINE, '        since: { now: date }')
      const bad = await checkOf(t, s.url, planted)
      const problems = bad.findings.filter((f) => f.severity === 'problem')
      const flag = problems.find((f) => f.path === '/resources/professional/enabled')
      t.match(flag?.message, /all 3 professionals read as disabled.*trueValues/, bad.lines.join('\n'))
      t.equal(flag?.line, planted.split('\n').findIndex((l) => l.includes('trueValues: [2]')) + 1, 'at its line')
      const stamp = problems.find((f) => f.path === '/resources/client/write/set/since')
      t.match(stamp?.message, /`now: date` writes `9999-99-99` but 2 of 2 stored values .* `99\/99\/9999`.*format: dmy/, bad.lines.join('\n'))
      t.equal(stamp?.line, planted.split('\n').findIndex((l) => l.includes('since: { now: date }')) + 1, 'at its line')
      t.equal((await s.rows('SELECT COUNT(*) AS n FROM patient'))[0].n.toString(), '2', 'check rolled its writes back')
    })
  })
}
