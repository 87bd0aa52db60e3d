// `ponte init` on a schema whose tables are named like nothing it knows (the stranger's
// person / person_contact / provider_hours, on every test database): it always writes a draft
// that validates, the client found by its shape (named by the appointment's `person_id`,
// holding a name), the rest as `# TODO` lines naming the candidate tables and columns.
// It used to write nothing: "no client table recognised among 6 tables".
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../../src/cli.js'
import { parseMapping } from '../../../src/mapping/load.js'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { strangerMapping, strangerSchema } from '../../helpers/stranger-clinic.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-init-shapes-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let drafts = 0

async function init (url: string): Promise<{ code: number, yaml: string }> {
  const out = join(dir, `draft-${drafts++}.yaml`)
  const write = process.stderr.write
  process.stderr.write = (() => true) as typeof process.stderr.write
  try {
    const code = await main(['init', '--db', url, '--out', out])
    return { code, yaml: readFileSync(out, 'utf8') }
  } finally {
    process.stderr.write = write
  }
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('the stranger\'s schema: a draft with the client found by its shape and TODOs naming candidates', async (t) => {
      const s = await scratchOn(t, dialect, strangerSchema(dialect), strangerMapping())
      const { code, yaml } = await init(s.url)
      t.equal(code, 0)
      t.doesNotThrow(() => parseMapping(yaml, 'draft.yaml'), 'the draft validates')
      t.match(yaml, /appointment:\n {4}table: appointment\n {4}key: \{ column: appt_id, type: text \}\n/)
      t.match(yaml, /refs:\n {6}client: person_id {3}# guess: every sampled value is a person\.person_id\n {6}professional: provider_id {3}# guess/)
      t.match(yaml, /# TODO client: no table is named like one; `person` is shaped like one .*: confirm\n {2}client:\n {4}table: person\n {4}key: person_id\n/)
      t.match(yaml, /name: \{ template: '\{given_name\} \{family_name\}' \} {3}# guess/)
      // The child rows' kinds read from their values: MOBILE rows hold phones, EMAIL rows e-mails.
      t.match(yaml, /phones: {3}# guess: key\/value child rows .*\n {6}- collect: \{ table: person_contact, on: \{ person_id: person_id \}, where: \{ column: kind, in: \["MOBILE"\] \}, column: value \}/)
      t.match(yaml, /mail: \{ table: person_contact, on: \{ person_id: person_id \}, where: \{ column: kind, eq: "EMAIL" \} \}/)
      // Two appointments fall on working days under every numbering: the section is drafted, commented, the numbering a TODO.
      t.match(yaml, /# TODO availability\.weekly: `provider_hours` looks like working hours by weekday; .*: say how its weekday counts .*\n# availability:\n# {3}weekly:\n# {4}table: provider_hours\n/)
      t.match(yaml, /^# {4}weekday: weekday$/m)
      t.match(yaml, /"confirmed": CONFIRMED {3}# guess/)
    })
  })
}

t.test('a database with no appointment or client shape at all: placeholders, exit 0, the draft validates', async (t) => {
  const s = await scratchOn(t, 'sqlite', 'CREATE TABLE ledger (entry_no INTEGER PRIMARY KEY, amount INTEGER);\nCREATE TABLE provider (provider_id INTEGER PRIMARY KEY, full_name VARCHAR(40));', strangerMapping())
  const { code, yaml } = await init(s.url)
  t.equal(code, 0)
  t.doesNotThrow(() => parseMapping(yaml, 'draft.yaml'))
  t.match(yaml, /# TODO appointment: no table is named or shaped like one .*\n {2}appointment:\n {4}table: TODO_APPOINTMENT_TABLE/)
  t.match(yaml, /# TODO client: no table is named or shaped like one .*\n {2}client:\n {4}table: TODO_CLIENT_TABLE/)
  t.match(yaml, /professional:\n {4}table: provider\n/)
})
