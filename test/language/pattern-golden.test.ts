// Golden T-SQL of the pattern-string mappings (test/helpers/pattern-clinics.ts): SQL Server
// cannot run here, so the statements reading OSCAR-like template days (the day's row, the
// provider's own template and the shared one as two left joins) and Open-Dental-like pattern
// lengths are parsed by the real T-SQL grammar for 2012+ and 2008 R2 and pinned in test/golden/.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/pattern-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { OPEN_DENTAL_MAPPING, oscarMapping } from '../helpers/pattern-clinics.js'

t.setTimeout(180_000)

for (const yaml of [oscarMapping(), OPEN_DENTAL_MAPPING]) {
  pinTsql(t, buildModel(parseMapping(yaml, 'pattern.yaml')), { by: 'test/language/pattern-golden.test.ts', prefix: 'pattern-' })
}
