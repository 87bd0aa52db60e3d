// Golden T-SQL of the OpenEMR-like calendar (test/helpers/openemr-calendar.ts): SQL Server
// cannot run here, so the statements reading recurring rows (a row starting by the range's last
// day, and in the range or recurring into it: its kind not `once`, its `pc_endDate` not before
// the range or none) are parsed by the real T-SQL grammar for 2012+ and 2008 R2 and pinned in
// test/golden/. After an intended change:
// UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/repeat-rows-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { OPENEMR_MAPPING } from '../helpers/openemr-calendar.js'

t.setTimeout(180_000)

pinTsql(t, buildModel(parseMapping(OPENEMR_MAPPING, 'openemr.yaml')), { by: 'test/language/repeat-rows-golden.test.ts', prefix: 'repeat-rows-' })
