// Golden T-SQL of the normalised installation (test/helpers/normalised-installation.ts): its
// mapping lives in the test tree, so test/unit/sql/mssql/dialect-golden.test.ts does not see it. Every statement
// is parsed by the real T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/normalised-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { NORMALISED_MAPPING } from '../helpers/normalised-installation.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(NORMALISED_MAPPING, 'clinica-illimani.yaml'))
pinTsql(t, model, { by: 'test/language/normalised-golden.test.ts' })
