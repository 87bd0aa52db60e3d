// Issue 27: `ponte init` on copies of six legacy systems, each schema generated in the test
// (`test/helpers/init-legacy.ts`) on SQLite, MariaDB and PostgreSQL (MyISAM on MariaDB alone):
// OSCAR's phones in columns and in `demographicExt` rows drafted as one list instead of a crash;
// the phone country, area code and spelling read from the numbers' shapes, unsure said as a
// TODO; OpenEMR's status codes over its event flag and its lengths in seconds; GNU Health's
// contact rows rather than its insurance numbers, and `storedIn: UTC`; OpenMRS's
// appointments linking a patient and a time slot, with a generated uuid; MyISAM tables named
// and accepted (`nonTransactional: accept`, converting them a TODO).
import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseMapping } from '../../../src/mapping/load.js'
import type { TestDialect } from '../../helpers/app.js'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { strangerMapping } from '../../helpers/stranger-clinic.js'
import { withEngines } from '../../helpers/table-engines.js'
import { ambiguousPhones, gnuHealthInsurance, openDental, openemrStatus, openmrs, oscarExt } from '../../helpers/init-legacy.js'
import { runCli } from '../../helpers/run-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-init-legacy-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0

/** The draft init writes for `schema` on `dialect`: it exits 0, and the draft validates. */
async function draft (t: Test, dialect: TestDialect, schema: string): Promise<{ yaml: string, url: string }> {
  const s = await scratchOn(t, dialect, schema, strangerMapping())
  const out = join(dir, `draft-${n++}.yaml`)
  const init = await runCli(['init', '--db', s.url, '--out', out])
  t.equal(init.code, 0, 'init exits 0')
  t.notMatch(init.printed, /does not validate/, 'nothing to say about the draft\'s validity')
  const yaml = readFileSync(out, 'utf8')
  t.doesNotThrow(() => parseMapping(yaml, out), 'the draft validates')
  return { yaml, url: s.url }
}

for (const dialect of testDialects()) {
  t.test(`OSCAR with demographicExt [${dialect}]: phones in columns and key/value rows, one list, no crash`, async (t) => {
    const { yaml } = await draft(t, dialect, oscarExt(dialect))
    t.equal(yaml.match(/^ {4}phones:/gm)?.length, 1, 'one phones key')
    t.match(yaml, /phones: {3}# guess: .*the columns phone, phone2 hold phones too.*\n {6}- collect: \{ table: demographicExt, on: \{ demographic_no: demographic_no \}, where: \{ column: key_val, in: \["demo_cell"\] \}, column: value \}\n {6}- phone\n {6}- phone2\n/i)
    t.match(yaml, /- phones: 0 {3}# guess: a new phone is a demo_cell row\n( {10}key: .*\n)? {10}set:\n {12}key_val: \{ value: "demo_cell" \}\n/, 'a new phone is a demo_cell row')
    t.notMatch(yaml, /hPhoneExt"|"language"/, 'extensions and languages are no phones')
    t.match(yaml, /^phone: \{ defaultCountry: CA \} {3}# guess: 17 sampled phones, 0 with a country code: 17 read as numbers of \+1/m, 'Toronto area codes')
    t.match(yaml, /phoneFormat: dashed {3}# guess: .*NNN-NNN-NNNN/)
  })

  t.test(`Open Dental [${dialect}]: NANP phones make the country US, the spelling their own mask`, async (t) => {
    const { yaml } = await draft(t, dialect, openDental(dialect))
    t.match(yaml, /^phone: \{ defaultCountry: US \} {3}# guess: 24 sampled phones, 0 with a country code: 24 read as numbers of \+1/m)
    t.notMatch(yaml, /TODO phone\.defaultCountry|Brazil, the default, is assumed/, 'Brazil is not assumed')
    t.match(yaml, /^# TODO timezone: the clinic's IANA zone in US: the default, America\/Sao_Paulo, is Brazil's, and `ponte check` fails until it is given$/m, 'the Brazilian default zone is questioned')
    t.match(yaml, /phones: \[WirelessPhone, HmPhone, WkPhone\]/i, 'the mobile first')
    // `masked` writes (503) 555-0142, with a space the clinic's numbers do not have.
    t.match(yaml, /client:[^]*write:\n( {6}key: .*\n)? {6}phoneFormat: '\(###\)###-####' {3}# guess: 24 of 24 such numbers are spelt \(NNN\)NNN-NNNN/)
    t.notMatch(yaml, /defaultAreaCode/, 'every number has its area code')
  })

  t.test(`ten digits two countries read alike [${dialect}]: unsure, said, not guessed`, async (t) => {
    const { yaml } = await draft(t, dialect, ambiguousPhones(dialect))
    t.match(yaml, /^# TODO phone\.defaultCountry: 5 sampled phones, 0 with a country code: they read as numbers of BR and US alike: not sure/m)
    t.notMatch(yaml, /^phone:/m, 'no country drafted')
    t.notMatch(yaml, /phoneFormat/, 'no spelling of an unknown country')
  })

  t.test(`OpenEMR [${dialect}]: the status codes, not the event flag; lengths in seconds`, async (t) => {
    const { yaml } = await draft(t, dialect, openemrStatus(dialect))
    t.match(yaml, /state:\n {6}column: pc_apptstatus {3}# guess: the status column, its values codes; not pc_eventstatus \(its values are a flag or one value\)/i)
    for (const code of ['-', '@', '~', 'x', '?', '%', '!']) t.match(yaml, new RegExp(`"${code.replace(/[?]/, '\\?')}": (TODO|WAITING)`), `code ${code} listed`)
    t.match(yaml, /end:\n {6}duration: \{ column: pc_duration, unit: seconds \} {3}# guess: every one of 14 sampled values is a multiple of 60 from 300 up/i)
    t.match(yaml, /service:\n {4}table: openemr_postcalendar_categories\n[^]*duration: \{ column: pc_duration, unit: seconds \}/i)
  })

  t.test(`GNU Health [${dialect}]: contact rows are the phones, insurance numbers are not; storedIn: UTC`, async (t) => {
    const { yaml } = await draft(t, dialect, gnuHealthInsurance(dialect))
    t.match(yaml, /- collect: \{ table: party_contact_mechanism, on: \{ name: party \}, where: \{ column: type, in: \["mobile", "phone"\] \}, column: value \}/)
    t.notMatch(yaml, /collect: \{ table: gnuhealth_insurance/, 'policy numbers are no phones')
    t.match(yaml, /^phone: \{ defaultCountry: AR \}/m)
    t.notMatch(yaml, /VI\b/, 'no Virgin Islands')
    t.match(yaml, /^storedIn: UTC {3}# guess: `gnuhealth_appointment` has create_date, write_date, as Tryton/m, 'Tryton\'s naive UTC, drafted')
  })

  t.test(`OpenMRS [${dialect}]: an appointment links a patient and a time slot; a uuid is generated`, async (t) => {
    const { yaml } = await draft(t, dialect, openmrs(dialect))
    t.match(yaml, /appointment:\n {4}table: appointmentscheduling_appointment\n/, 'not the provider\'s blocks')
    t.match(yaml, /joins:\n {6}slot: \{ table: appointmentscheduling_time_slot, on: \{ time_slot_id: time_slot_id \} \}/)
    t.match(yaml, /datetime: \{ column: slot\.start_date, format: datetime \}/)
    t.match(yaml, /client:\n {4}table: patient\n/, 'the patients, not the locations')
    t.match(yaml, /name: \{ template: '\{name\.given_name\} \{name\.family_name\}' \}/, 'names from person_name')
    t.match(yaml, /location:\n {4}table: location\n/)
    t.match(yaml, /uuid: \{ uuid: true \}/, 'a generated uuid')
    t.notMatch(yaml, /uuid: \{ value:/, 'never a constant uuid')
  })
}

if (testDialects().includes('mysql')) {
  t.test('MyISAM [mysql]: tables that cannot roll back are named and accepted, converting them a TODO', async (t) => {
    const { yaml } = await draft(t, 'mysql', withEngines(openDental('mysql'), { appointment: 'MyISAM', patient: 'MyISAM' }))
    t.match(yaml, /appointment:\n[^]*write:\n {6}nonTransactional: accept {3}# TODO: `appointment` is MyISAM, which cannot roll back: .*convert the tables to InnoDB/)
    t.match(yaml, /client:\n[^]*write:\n {6}nonTransactional: accept {3}# TODO: `patient` is MyISAM, which cannot roll back/)
    const innodb = await draft(t, 'mysql', openDental('mysql'))
    t.notMatch(innodb.yaml, /MyISAM|nonTransactional/, 'InnoDB tables say nothing')
  })
}
