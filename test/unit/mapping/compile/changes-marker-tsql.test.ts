// Issue 28: a change marker on SQL Server, where no SQL Server runs: a `rowversion` column read
// as '0x…' text and compared as binary from the last one seen, pinned with every other
// statement of the installation in a golden the T-SQL grammar parses.
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { pinTsql } from '../../../helpers/tsql-golden.js'
import { markerMapping } from '../../../helpers/marker-clinic.js'

const model = buildModel(parseMapping(markerMapping('pollSeconds: 5\nmarker: { column: rv, type: rowversion }\n').replace('installation: marker-clinic', 'installation: rowversion-marker'), 'marker.yaml'))

pinTsql(t, model, {
  by: 'test/unit/mapping/compile/changes-marker-tsql.test.ts',
  more: (t, statements) => {
    const marked = statements.find((s) => s.name === 'appointment.marked[]')
    t.match(marked?.sql, /\[t\]\.\[rv\] >= CONVERT\(BINARY\(8\), @p\d+, 1\)/, 'the marker compared as binary, from its last value (a parameter)')
    t.match(marked?.sql, /CONVERT\(VARCHAR\(18\), \[t\]\.\[rv\], 1\)/, 'and read back as 0x… text')
    t.match(marked?.sql, /ORDER BY \[t\]\.\[rv\]/, 'in marker order')
    const last = statements.find((s) => s.name === 'appointment.lastMarker')
    t.match(last?.sql, /CONVERT\(VARCHAR\(18\), MAX\(\[t\]\.\[rv\]\), 1\)/, 'the newest marker, where a window pass starts it from')
    t.ok(statements.some((s) => s.name === 'appointment.count[].minimal'), 'the window counted')
  }
})
