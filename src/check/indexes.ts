// Columns Ponte seeks rows by, without an index in the live database: correct, but every list,
// join or search reads the whole table — on a legacy agenda of millions of rows, a timeout at
// the clinic's busiest hour. A warning (the mapping is right), naming the table, the column
// and the index to create. The seeks are the compiler's record (`lookup` references), so a
// statement the compiler learns is advised on by construction.
import type { MappingModel } from '../mapping/model.js'
import { leadsAnIndex, type LiveCatalog } from '../db/columns.js'
import type { Dialect } from '../sql/dialect.js'
import type { CompiledMapping, Reference } from '../mapping/compile/index.js'
import { canonical } from './structure.js'
import type { Findings } from './findings.js'

/** One seek: the columns any of which an index may lead with (a join's `on` pairs), at one mapping place. */
export interface Seek { table: string, columns: string[], path: string, lookup: Reference['lookup'], probe?: Reference['probe'] }

export function checkIndexes (compiled: Pick<CompiledMapping, 'model' | 'references'>, catalog: LiveCatalog, out: Findings, dialect: Pick<Dialect, 'prefixIndexClass' | 'createIndex'>): void {
  const { model } = compiled
  const said = new Set<string>()
  for (const seek of seeks(compiled)) {
    // The e-mail search compares LOWER(TRIM(column)): a plain index cannot serve it (folded-search.ts).
    if (seek.lookup === 'folded') continue
    const table = catalog.table(seek.table)
    if (!table) continue
    const live = seek.columns.map((c) => table.columns.get(c.toLowerCase())).filter((c) => c !== undefined)
    if (live.length !== seek.columns.length) continue // a missing column is a problem said elsewhere
    const indexed = leadsAnIndex(table, seek.columns)
    if (indexed === undefined) continue
    // Search probes match prefixes too: PostgreSQL seeks those only in a pattern_ops index (or
    // one under the C collation), so a default index there still reads the whole table.
    const opclass = seek.lookup === 'prefix' ? dialect.prefixIndexClass(live[0].declared) : undefined
    const unseekable = indexed && opclass !== undefined && table.prefixLeaders !== undefined &&
      !seek.columns.some((c) => table.prefixLeaders?.has(c.toLowerCase()))
    if (indexed && !unseekable) continue
    const key = `${seek.table.toLowerCase()}|${seek.columns.join(',').toLowerCase()}`
    if (said.has(key)) continue
    said.add(key)
    const first = live[0].name
    // Beside an index that may already hold the plain name.
    const name = `IX_${table.name}_${first}${unseekable ? '_prefix' : ''}`.replace(/[^A-Za-z0-9_]/g, '_')
    const lacks = unseekable ? 'has no index that seeks a prefix (its indexes compare by the collation, not byte by byte)' : 'has no index'
    out.warning(seek.path, `column \`${first}\` of table \`${seek.table}\` ${lacks}: ${purpose(seek, model)} read the whole table; ` +
      `create one: ${dialect.createIndex(name, seek.table, first, opclass)}`)
  }
}

/**
 * The record's seeks, a join's `on` columns together (an index leading with any of them
 * serves it), each at the place the mapping names it; searches only of the kinds the
 * installation searches by (every kind's statement is compiled).
 */
export function seeks (compiled: Pick<CompiledMapping, 'model' | 'references'>): Seek[] {
  const { model } = compiled
  const searched = (r: Reference): boolean => r.probe !== undefined ? model.search.includes(r.probe) : r.lookup !== 'folded' || model.search.includes('email')
  const byPlace = new Map<string, Seek>()
  for (const r of compiled.references.list) {
    if (r.lookup === undefined || r.column === undefined || !searched(r)) continue
    const at = canonical(model.doc, r.path)
    // `…/joins/x/on/COL`: the join's place; `…/column`: the value's.
    const path = r.lookup === 'join' ? at.slice(0, at.lastIndexOf('/')) : at.replace(/\/column$/, '')
    const key = `${r.table.toLowerCase()}|${path}`
    const seek = byPlace.get(key)
    if (seek) {
      if (!seek.columns.includes(r.column)) seek.columns.push(r.column)
    } else byPlace.set(key, { table: r.table, columns: [r.column], path, lookup: r.lookup, probe: r.probe })
  }
  return [...byPlace.values()]
}

/** What would read the whole table, in the mapping's words: `each row joined through \`sala\` would`. */
function purpose (seek: Seek, model: MappingModel): string {
  const parts = seek.path.split('/')
  const resource = parts[1] === 'resources' ? parts[2] : undefined
  if (seek.probe !== undefined) return `each search of clients by ${seek.probe === 'cpf' ? 'CPF' : 'phone'} would`
  if (seek.lookup === 'join') {
    if (parts.at(-2) === 'collect') return 'collecting each client\'s phones would'
    return `each row joined through \`${parts.at(-2) ?? ''}\` would`
  }
  if (parts[1] === 'relations') {
    const between = (model.doc as { relations?: { between?: string[] }[] }).relations?.[Number(parts[2])]?.between ?? []
    return `who is related to a ${between.join(' or ')} would`
  }
  if (parts.includes('changes')) return 'each change-detection poll by its marker would'
  if (seek.lookup === 'range') return `lists of ${resource ?? 'row'}s by date would`
  const ref = parts.indexOf('refs')
  if (ref >= 0) return `${resource ?? 'row'}s of a ${parts[ref + 1]} would`
  if (parts.includes('key')) return `each ${resource ?? 'row'} read by id would`
  return 'each lookup by it would'
}

/**
 * The index to create so a seek of `column` in `table` is served, as clinic IT runs it here;
 * undefined when one leads with it, or the catalog cannot say (no table, no index list).
 */
export function indexToCreate (catalog: LiveCatalog, dialect: Pick<Dialect, 'createIndex'>, tableName: string, column: string): string | undefined {
  const table = catalog.table(tableName)
  const live = table?.columns.get(column.toLowerCase())
  if (!table || !live || leadsAnIndex(table, [column]) !== false) return undefined
  return dialect.createIndex(`IX_${table.name}_${live.name}`.replace(/[^A-Za-z0-9_]/g, '_'), tableName, live.name)
}
