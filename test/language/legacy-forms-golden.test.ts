// The legacy-forms installation's statements where no server runs them (issue 27, the second
// stranger's defects): SQL Server's T-SQL pinned in test/golden/ and parsed by the T-SQL
// grammar — dated hours and blocks ranged over dd/mm/yyyy text rearranged to YYYY-MM-DD, the
// patient's party read by key before an e-mail or CPF row is added on PATCH; and the `now:`
// forms the compiler refuses, at their key.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/contract/legacy-forms-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { LEGACY_FORMS_MAPPING, SINCE_LINE } from '../helpers/legacy-forms.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(LEGACY_FORMS_MAPPING, 'legacy-forms.yaml')), {
  by: 'test/contract/legacy-forms-golden.test.ts',
  more: (t, statements) => {
    const dmy = "(SUBSTRING([t].[dia], 7, 4) + '-' + SUBSTRING([t].[dia], 4, 2) + '-' + SUBSTRING([t].[dia], 1, 2))"
    for (const name of ['availability.blocks', 'availability.dated']) {
      const s = statements.find((x) => x.name === name)
      t.ok(s?.sql.includes(`${dmy} <= `) && s.sql.includes(`${dmy} >= `), `${name} ranges over the rearranged date`)
    }
    t.ok(statements.some((s) => s.name === 'client.linked'), 'the party read by key for a row added on PATCH')
  }
})

t.test('`now:` forms that cannot hold that part of now are refused at their key', async (t) => {
  // A write the mapping cannot express is a value in the compiled writes (served as 501, reported by check at its key).
  const refused = (line: string): string => {
    try {
      const writes = compileMapping(buildModel(parseMapping(LEGACY_FORMS_MAPPING.replace(SINCE_LINE, line), 'm.yaml')), sqlite).writes.client
      return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : 'accepted'
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
  }
  t.equal(refused(SINCE_LINE), 'accepted')
  t.equal(refused("        since: { now: date, format: dmy, separator: '.' }"), 'accepted')
  t.match(refused('        since: { now: date, format: hhmm }'), /write\/set\/since\/format.*`now: date` is written as `date`, `text`, `dmy`, `ymd`, `int`, not `hhmm`/)
  t.match(refused('        since: { now: time, format: dmy }'), /write\/set\/since\/format.*`now: time`/)
  t.match(refused("        since: { now: date, separator: '.' }"), /write\/set\/since\/separator.*goes with `format: dmy`/)
})
