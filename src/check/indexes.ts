// Columns Ponte filters or looks rows up by, without an index in the live database: correct,
// but every list, join or search reads the whole table — on a legacy agenda of millions of
// rows, a timeout at the clinic's busiest hour. A warning (the mapping is right), naming the
// table, the column and the index to create.
import type { JoinDoc } from '../mapping/schema.js'
import type { MappingModel, TableModel, Value } from '../mapping/model.js'
import { leadsAnIndex, type LiveCatalog } from '../db/columns.js'
import type { Dialect } from '../sql/dialect.js'
import { probes } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

interface Place { table: string, joins: Record<string, JoinDoc> }

export function checkIndexes (model: MappingModel, catalog: LiveCatalog, out: Findings, dialect: Pick<Dialect, 'prefixIndexClass' | 'createIndex' | 'ident' | 'table'>): void {
  const said = new Set<string>()

  /** `columns` are alternatives: one index leading with any of them serves the lookup. */
  const want = (tableName: string, columns: string[], path: string, why: string, prefix = false): void => {
    const table = catalog.table(tableName)
    if (!table || columns.length === 0) return
    const live = columns.map((c) => table.columns.get(c.toLowerCase())).filter((c) => c !== undefined)
    if (live.length !== columns.length) return // a missing column is a problem said elsewhere
    if (leadsAnIndex(table, columns) !== false) return
    const key = `${tableName.toLowerCase()}|${columns.join(',').toLowerCase()}`
    if (said.has(key)) return
    said.add(key)
    const first = live[0].name
    const name = `IX_${table.name}_${first}`.replace(/[^A-Za-z0-9_]/g, '_')
    // Search probes match prefixes too: PostgreSQL seeks those only in a pattern_ops index.
    const opclass = prefix ? dialect.prefixIndexClass(live[0].declared) : undefined
    out.warning(path, `column \`${first}\` of table \`${tableName}\` has no index: ${why} read the whole table; ` +
      `create one: ${dialect.createIndex(name, tableName, first, opclass)}`)
  }

  /** A value that is a plain column (`COL` or `join.COL`), as the table and column it reads. */
  const at = (place: Place, v: Value | undefined): { table: string, column: string } | undefined => {
    if (v?.column === undefined) return undefined
    const dot = v.column.indexOf('.')
    if (dot < 0) return { table: place.table, column: v.column }
    const join = place.joins[v.column.slice(0, dot)]
    return join ? { table: join.table, column: v.column.slice(dot + 1) } : undefined
  }
  const filter = (place: Place, v: Value | undefined, why: string, prefix = false): void => {
    const c = at(place, v)
    if (c && v) want(c.table, [c.column], v.path, why, prefix)
  }

  /** Each join is a lookup into its table by the `on` columns. */
  const joins = (joinsOf: Record<string, JoinDoc>, path: string): void => {
    for (const [alias, j] of Object.entries(joinsOf)) {
      want(j.table, Object.values(j.on), `${path}/joins/${alias}/on`, `each row joined through \`${alias}\` would`)
    }
  }
  const resource = (t: TableModel, what: string): void => {
    want(t.table, [t.key.parts[0].column], `${t.path}/key`, `each ${what} read by id would`)
    joins(t.joins, t.path)
  }

  const a = model.appointment
  resource(a, 'appointment')
  filter(a, a.start.datetime ?? a.start.date, 'lists of appointments by date would')
  filter(a, a.refs.professional, 'appointments of a professional would')
  filter(a, a.refs.client, 'appointments of a client would')

  const c = model.client
  resource(c, 'client')
  filter(c, c.fields.email, 'each search of clients would')
  // Phones and CPF are probed by their stored spellings (equality and prefixes): an index on
  // each column lets a search seek. Scanned ones read every row whatever the indexes.
  const probed = [...(c.fields.cpf ? [['cpf', c.fields.cpf] as const] : []), ...c.phones.map((p) => ['phone', p] as const)]
  for (const [kind, v] of probed) {
    if (model.search.includes(kind) && probes(model, kind, v)) filter(c, v, `each search of clients by ${kind === 'cpf' ? 'CPF' : 'phone'} would`, true)
  }
  for (const v of c.phones) {
    if (v.collect) want(v.collect.table, Object.values(v.collect.on), `${v.path}/collect/on`, 'collecting each client\'s phones would')
  }

  for (const l of Object.values(model.lookups)) if (l) resource(l, l.name)

  for (const r of model.relations) {
    if (r.kind !== 'table') continue
    joins(r.joins, r.path)
    // The pairs are read from either side: one index leading with either column serves.
    const sides = r.columns.map((v) => at(r, v))
    if (sides[0] && sides[1] && sides[0].table === sides[1].table) {
      want(sides[0].table, [sides[0].column, sides[1].column], r.columns[0].path, `who is related to a ${r.between.join(' or ')} would`)
    }
  }

  const av = model.doc.availability
  for (const [source, path] of [[av?.weekly, '/availability/weekly'], [av?.dated, '/availability/dated'],
    ...(Array.isArray(av?.blocks) ? av.blocks.map((b, i) => [b, `/availability/blocks/${i}`] as const) : [[av?.blocks, '/availability/blocks'] as const])] as const) {
    if (source?.joins) joins(source.joins, path)
  }
}
