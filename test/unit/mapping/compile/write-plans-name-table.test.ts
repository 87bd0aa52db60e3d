// Every statement the compiler makes that writes (INSERT, UPDATE, DELETE) names its table in
// `Statement.writes`: the one thing the refusal of tables that cannot roll back
// (db/non-transactional.ts) and `check --no-write-probe`'s reads-only run (check/probes.ts) go
// by. Over the samples and the test tree's installations of every write form (key tables,
// history rows, state rows, open slots, joined rows, a change marker), compiled for every dialect.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { compileMapping } from '../../../../src/mapping/compile/index.js'
import { EXPLAIN_DIALECTS, explainDialect } from '../../../../src/sql/databases.js'
import { visitTypeMapping } from '../../../helpers/visit-type-required.js'
import { historyMapping } from '../../../helpers/history-installation.js'
import { confirmMapping } from '../../../helpers/confirm-installation.js'
import { mapping as openSlotsMapping } from '../../../helpers/open-slots-installation.js'
import { markerMapping } from '../../../helpers/marker-clinic.js'
import { NORMALISED_MAPPING } from '../../../helpers/normalised-installation.js'
import { phoneRowsMapping } from '../../../helpers/phone-rows.js'
import { agendaproMapping } from '../../../helpers/agendapro-clinic.js'

const MAPPINGS: Record<string, string> = {
  'clinica-sorriso': readFileSync('mappings/clinica-sorriso.yaml', 'utf8'),
  'northwind-health': readFileSync('mappings/northwind-health.yaml', 'utf8'),
  'visit type': visitTypeMapping(),
  history: historyMapping(true),
  'state rows (voided)': confirmMapping('voided'),
  'state rows (attribute)': confirmMapping('attribute'),
  'open slots': openSlotsMapping('release'),
  marker: markerMapping('pollSeconds: 5\nmarker: { column: touched }\n'),
  normalised: NORMALISED_MAPPING,
  'phone rows': phoneRowsMapping(),
  agendapro: agendaproMapping()
}

// Statements, not words inside them: a locking read's `FOR UPDATE` is no UPDATE.
const WRITES = /(^|;)\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE)\b/i

t.test('every INSERT, UPDATE and DELETE the compiler makes names the table it writes', async (t) => {
  for (const choice of EXPLAIN_DIALECTS) {
    const dialect = await explainDialect(choice)
    for (const [name, yaml] of Object.entries(MAPPINGS)) {
      const compiled = compileMapping(buildModel(parseMapping(yaml, `${name}.yaml`)), dialect)
      const writes = compiled.statements().filter((s) => WRITES.test(s.sql.replace(/FOR\s+UPDATE/gi, '')))
      t.ok(writes.length > 0, `${name} on ${choice}: ${writes.length} write statements`)
      t.same(writes.filter((s) => s.writes === undefined).map((s) => s.name), [], `${name} on ${choice}: each names its table`)
    }
  }
})
