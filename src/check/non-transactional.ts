// `ponte check` on tables that cannot roll back (MariaDB/MySQL MyISAM, Aria): the write probe
// and the statement run work inside transactions they roll back, which such a table ignores,
// so check never writes to one. Each such table the mapping writes is said once, with its
// engine and what to do; a resource whose mapping accepts it (`write.nonTransactional: accept`)
// is told its writes there are not proven instead.
import type { LiveCatalog } from '../db/columns.js'
import { nonTransactionalTables } from '../db/non-transactional.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

/** Reports each table the mapping writes that cannot roll back; returns how many. */
export function checkNonTransactional (compiled: Pick<CompiledMapping, 'model' | 'references' | 'statements'>, catalog: LiveCatalog, out: Findings): number {
  const { model } = compiled
  const written = compiled.references.list.filter((r) => r.use === 'write')
  const tables = [...written.map((r) => r.table), ...compiled.statements().flatMap((s) => s.writes === undefined ? [] : [s.writes])]
  const found = nonTransactionalTables(tables, catalog)
  for (const { table, engine } of found) {
    const first = written.find((r) => catalog.table(r.table)?.name === table)?.path ?? model.appointment.path
    const owner = first.startsWith(model.client.path) ? model.client : model.appointment
    // The resource's own table at its `table:` line; another (a history or child row) where it is written.
    const place = catalog.table(owner.table)?.name === table ? `${owner.path}/table` : first
    const fix = `convert it where the clinic's program allows (\`ALTER TABLE ${table} ENGINE=InnoDB\`, on a copy first)`
    if (owner.write?.nonTransactional === 'accept') {
      out.notProven(place, `table \`${table}\` is ${engine}, which cannot roll back: check did not write to it, so the writes that change it are not proven; the mapping accepts that (\`write.nonTransactional: accept\`): a write the server refuses after writing (a 501 after its read-back) stays written there. To prove them, run check on a copy whose tables are InnoDB, or ${fix}`)
    } else {
      out.problem(place, `table \`${table}\` is ${engine}, which cannot roll back: check did not write to it, and the server refuses every write that would change it (501) so that no refused write stays half done. ${fix[0].toUpperCase()}${fix.slice(1)}, or accept writes without that guarantee with \`write.nonTransactional: accept\``)
    }
  }
  return found.length
}
