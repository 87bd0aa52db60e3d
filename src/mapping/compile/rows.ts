// Multi-table inserts: a record of a normalised schema is several rows (a person, then the
// patient sharing its key, then a name, an identifier and a phone attribute). The mapping
// lists the rows written `before` and `after` the resource's own; each is a join of the
// resource (or a `phones` entry collecting from a child table), and the columns of its `on`
// carry the shared keys from the rows written earlier — so no key is ever written twice by hand.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import { whereList, type MappingModel, type TableModel, type Value } from '../model.js'
import type { ConditionDoc, SqlTypeName, WhereDoc, WriteSpecDoc } from '../schema.js'
import { CompileError, joinMatch, Scope } from './scope.js'
import { keyMatch } from './key.js'
import { fieldWriter, insertPlan, uniqueColumns, writesTo, writeValues, type FieldWriter, type InsertPlan } from './write-columns.js'
import { isNewKey, type WrittenValue } from './derived.js'
import { reference, segment } from './references.js'
import { isPhoneLine } from './phone-line.js'
import { isPhoneCopy } from './phone-copy.js'
import { templateColumns } from './value.js'
import { onColumns } from './join-on.js'
import type { NowParts } from '../../normalise/datetime.js'

/** The resource's own row in `links`. */
export const OWN_ROW = ''

/** A column filled with a value of a row written before: `from` ('' = the resource row) and its column. */
export interface Link { column: string, from: string, fromColumn: string }

export interface RowPlan {
  /** The join alias, or `phones/<i>`. */
  name: string
  links: Link[]
  set: WrittenValue[]
  /** With a generated key: the insert (insertRow) and the column the key lands in. */
  keyed?: { plan: InsertPlan, column: string }
  /** Without: a plain INSERT of every column from `col:<name>` inputs. */
  statement?: Statement
  columns: { column: string, type: SqlTypeName }[]
  /** Columns holding request fields: a row with some, none of them given and no row hanging from it, is not inserted. */
  fieldColumns: string[]
  /** The row's own stamps, written whenever a PATCH changes a field kept in it (`update`). */
  update: WrittenValue[]
}

export interface RowsPlan {
  before: RowPlan[]
  after: RowPlan[]
  /** Columns of the resource row taken from `before` rows (the shared key among them). */
  ownLinks: Link[]
}

type Row = NonNullable<WriteSpecDoc['before']>[number]

/** Where a value's columns live: `alias.col` columns of one row alias, else undefined. */
function aliasOf (v: Value): string | undefined {
  const cols = v.column !== undefined ? [v.column] : v.template !== undefined ? templateColumns(v.template) : []
  const heads = new Set(cols.map((c) => c.includes('.') ? c.slice(0, c.indexOf('.')) : OWN_ROW))
  return heads.size === 1 ? [...heads][0] : undefined
}

/**
 * A field read from a written join (`name.given_name`): its writer, with columns named
 * `alias.column` so the caller routes them to that row. undefined when not such a field.
 */
export function joinedFieldWriter (v: Value | undefined, type: SqlTypeName, written: Set<string>, convert?: (x: unknown) => unknown): FieldWriter | undefined {
  if (!v) return undefined
  const alias = aliasOf(v)
  if (alias === undefined || alias === OWN_ROW || !written.has(alias)) return undefined
  const strip = (c: string) => c.slice(alias.length + 1)
  // The roles name template columns, so they lose the alias as the template's do.
  const split = typeof v.split === 'object' ? { ...v.split, family: v.split.family && strip(v.split.family), familyPrefix: v.split.familyPrefix && strip(v.split.familyPrefix), middle: v.split.middle && strip(v.split.middle) } : v.split
  const local: Value = { ...v, column: v.column !== undefined ? strip(v.column) : undefined, template: v.template?.replace(/\{([^{}]+)\}/g, (_, c: string) => `{${strip(c.trim())}}`), split }
  const w = fieldWriter(local, type, convert)
  if (!w) return undefined
  return {
    columns: w.columns.map((c) => ({ ...c, column: `${alias}.${c.column}` })),
    encode: (value) => Object.fromEntries(Object.entries(w.encode(value)).map(([c, x]) => [`${alias}.${c}`, x]))
  }
}

/** The aliases of the extra rows a write declares. */
export function writtenRows (write: WriteSpecDoc | undefined): Set<string> {
  return new Set([...write?.before ?? [], ...write?.after ?? []].map(rowName))
}

function rowName (r: Row): string {
  return r.join ?? `phones/${r.phones ?? 0}`
}

/**
 * Plans the extra rows of `table`'s write. `fieldColumns` are the field writers' columns,
 * `alias.column` for those of extra rows.
 */
export function compileRows (model: MappingModel, table: TableModel & { phones?: Value[] }, write: WriteSpecDoc | undefined,
  fieldColumns: { column: string, type: SqlTypeName }[], dialect: Dialect): RowsPlan | undefined {
  if (!write?.before?.length && !write?.after?.length) return undefined
  const path = `${table.path}/write`
  const ownLinks: Link[] = []
  const done = new Set<string>([OWN_ROW])
  const plan = (r: Row, i: number, when: 'before' | 'after'): RowPlan => {
    const at = `${path}/${when}/${i}`
    const name = rowName(r)
    let target: { table: string, on: Record<string, string>, from?: string, where?: WhereDoc, wherePath: string }
    if (r.join !== undefined) {
      const j = table.joins[r.join]
      if (!j) throw new CompileError(`${at}/join`, `no join called \`${r.join}\` in ${table.path}/joins`)
      target = { table: j.table, on: onColumns(j.on), from: j.from, where: j.where, wherePath: `${table.path}/joins/${r.join}/where` }
      reference({ table: j.table, use: 'write', path: `${table.path}/joins/${r.join}/table` })
    } else {
      const phone = table.phones?.[r.phones ?? 0]
      const c = phone?.collect
      if (!phone || !c) throw new CompileError(`${at}/phones`, `phones/${r.phones ?? 0} does not collect from a child table`)
      target = { table: c.table, on: onColumns(c.on), where: c.where, wherePath: `${phone.path}/collect/where` }
      reference({ table: c.table, use: 'write', path: `${phone.path}/collect/table` })
    }
    const links: Link[] = []
    for (const [local, remote] of Object.entries(target.on)) {
      // `local` belongs to the row this one hangs from: a join's parent, or a column path.
      const dot = local.indexOf('.')
      const parent = target.from ?? (dot >= 0 ? local.slice(0, dot) : OWN_ROW)
      const parentColumn = dot >= 0 && target.from === undefined ? local.slice(dot + 1) : local
      if (when === 'before' && parent === OWN_ROW) ownLinks.push({ column: parentColumn, from: name, fromColumn: remote })
      else if (done.has(parent)) links.push({ column: remote, from: parent, fromColumn: parentColumn })
      else throw new CompileError(at, `\`${name}\` hangs from \`${parent}\`, which is not written before it`)
    }
    // A phone row's `phoneLine` and `phone` columns are written with its phone (client-write.ts).
    const own = r.join === undefined ? Object.fromEntries(Object.entries(r.set ?? {}).filter(([, w]) => !isPhoneLine(w) && !isPhoneCopy(w))) : r.set
    const prefix = `${name}.`
    const fields = fieldColumns.filter((c) => c.column.startsWith(prefix)).map((c) => ({ ...c, column: c.column.slice(prefix.length) }))
    const given = [...links.map((l) => l.column), ...fields.map((f) => f.column), ...Object.keys(r.set ?? {})]
    // Nothing made from a key is known before the record's own row exists.
    const made = when === 'before' ? Object.entries(own ?? {}).find(([, w]) => 'identifier' in w || isNewKey(w)) : undefined
    if (made) throw new CompileError(`${at}/set/${segment(made[0])}`, `\`${'identifier' in made[1] ? 'identifier' : 'newKey'}\` is made from the new record's key, which a row written before the record does not have yet (it would be written NULL): write it in an \`after\` row, or give \`uuid: true\``)
    const set = [...writeValues(model, target.table, own, `${at}/set`), ...impliedByWhere(target.table, target.where, target.wherePath, given)]
    const columns = uniqueColumns([...links.map((l) => ({ column: l.column, type: 'int' as SqlTypeName })), ...fields, ...set])
    const update = writeValues(model, target.table, r.update, `${at}/update`)
    done.add(name)
    if (r.key) {
      const per = perParent(r.key, when, links, columns, target.table, `${at}/key`)
      const keyColumn = per && r.key.generate === 'max' && r.key.column !== undefined ? r.key.column : Object.values(target.on)[0]
      const rowTable: TableModel = { table: target.table, key: { column: keyColumn, type: 'int', parts: [{ column: keyColumn, type: 'int' }], separator: '-' }, where: [], joins: {}, path: at }
      return { name, links, set, update, columns, fieldColumns: fields.map((f) => f.column), keyed: { plan: insertPlan(`${table.path.split('/').pop() ?? 'row'}.${name}.insert`, rowTable, { key: r.key }, columns, dialect, `${at}/key`, per), column: keyColumn } }
    }
    if (columns.length === 0) throw new CompileError(at, `nothing to insert into ${target.table}`)
    const params = new ParamList(dialect)
    const values = columns.map((c) => params.input(`col:${c.column}`, c.type))
    const statement = { name: `${table.path.split('/').pop() ?? 'row'}.${name}.insert`, sql: dialect.insert(target.table, columns.map((c) => c.column), values), params: params.params, ...writesTo(target.table, columns) }
    return { name, links, set, update, columns, fieldColumns: fields.map((f) => f.column), statement }
  }
  const before = (write.before ?? []).map((r, i) => plan(r, i, 'before'))
  const after = (write.after ?? []).map((r, i) => plan(r, i, 'after'))
  return { before, after, ownLinks }
}

/**
 * The columns a written row must hold for its join's `where` to find it again (an OpenMRS
 * identifier's `identifier_type: 3`): each top-level `eq` on a column nothing else writes.
 */
function impliedByWhere (table: string, where: WhereDoc | undefined, path: string, given: string[]): WrittenValue[] {
  const taken = new Set(given.map((c) => c.toLowerCase()))
  const equal = (c: ConditionDoc): c is ConditionDoc & { column: string, eq: string | number | boolean } =>
    'column' in c && c.eq !== undefined && Object.keys(c).every((k) => k === 'column' || k === 'eq' || k === 'codes')
  const out: WrittenValue[] = []
  for (const c of whereList(where).flatMap((c) => 'all' in c ? c.all : [c]).filter(equal)) {
    if (c.column.includes('.') || taken.has(c.column.toLowerCase())) continue
    taken.add(c.column.toLowerCase())
    reference({ table, column: c.column, use: 'write', path })
    const value = c.eq
    out.push({ column: c.column, type: typeof value === 'number' ? 'int' : typeof value === 'boolean' ? 'bit' : 'text', value: () => value })
  }
  return out
}

/**
 * A `max` key counted per parent (`{ generate: max, column: seq, per: patient_id }`): `per`
 * must be a column the row takes from the row it hangs from, so the parent binds as the
 * insert's own input. undefined for any other key.
 */
function perParent (key: NonNullable<Row['key']>, when: 'before' | 'after', links: Link[], columns: { column: string, type: SqlTypeName }[], table: string, path: string): { column: string, type: SqlTypeName } | undefined {
  if (key.generate !== 'max' || (key.per === undefined && key.column === undefined)) return undefined
  if (when !== 'after') throw new CompileError(`${path}/per`, 'a key counted per parent is for an `after` row: a `before` row has no parent written yet')
  if (key.per === undefined || key.column === undefined) throw new CompileError(`${path}/${key.per === undefined ? 'per' : 'column'}`, 'a key counted per parent takes both `column` (the number counted) and `per` (the parent\'s column)')
  const link = links.find((l) => l.column.toLowerCase() === key.per?.toLowerCase())
  if (!link) throw new CompileError(`${path}/per`, `\`${key.per}\` is not filled from the row this one hangs from (its join's \`on\` fills ${links.map((l) => `\`${l.column}\``).join(', ') || 'nothing'}): the number is counted per value of one of those`)
  reference({ table, column: key.column, use: 'key', path: `${path}/column` })
  reference({ table, column: link.column, use: 'filter', path: `${path}/per`, lookup: 'equal' })
  return { column: link.column, type: columns.find((c) => c.column === link.column)?.type ?? 'int' }
}

/** The resource row's INSERT when its key comes from a `before` row: every column an input, no key generation. */
export function sharedKeyInsert (name: string, table: TableModel, columns: { column: string, type: SqlTypeName }[], dialect: Dialect): Statement {
  const params = new ParamList(dialect)
  const all = uniqueColumns(columns)
  return { name, sql: dialect.insert(table.table, all.map((c) => c.column), all.map((c) => params.input(`col:${c.column}`, c.type))), params: params.params, ...writesTo(table.table, all) }
}

/** The correction of fields kept in one joined row: its UPDATE, and whether the row exists yet. */
export interface JoinedRowWrite {
  alias: string
  /** Sets the fields' columns and the row's stamps (`update` of its `before`/`after` entry). */
  update: Statement
  /** The stamps' values at `now`, by `alias.column`; a field's own column is never among them. */
  touched: (now: NowParts) => Record<string, unknown>
  /** One row (`x`) when the client has that row. Inputs: `id` (keyArgs). */
  exists: Statement
  /** The stamp columns of the row the reads show, as `c<i>` in `columns`' order (check compares them). Inputs: `id`. */
  stamped?: { statement: Statement, columns: string[] }
}

/**
 * PATCH of fields kept in joined rows: one UPDATE per join, of the very row the reads show
 * (the same `on`, `where` and `first` as the join), found from the client's key, with the
 * row's own stamps (`stamps`, by alias). Inputs: `id` (keyArgs) and `col:<alias>.<column>`.
 */
export function joinedRowUpdates (table: TableModel, columns: { column: string, type: SqlTypeName }[], dialect: Dialect, stamps: Record<string, WrittenValue[]> = {}): JoinedRowWrite[] {
  const byAlias = new Map<string, { column: string, type: SqlTypeName }[]>()
  for (const c of uniqueColumns(columns)) {
    const alias = c.column.slice(0, c.column.indexOf('.'))
    byAlias.set(alias, [...byAlias.get(alias) ?? [], c])
  }
  return [...byAlias].map(([alias, cols]) => {
    const j = table.joins[alias]
    const path = `${table.path}/joins/${alias}`
    if (!j || j.from !== undefined) throw new CompileError(path, `\`${alias}\` must hang from the ${table.table} table itself for its fields to be corrected`)
    // The parent's side of the join, for this client: its key itself, or the column read by key.
    const own = new Scope(dialect, { table: table.table, joins: {}, where: [], path: table.path }, 'p')
    const matching = (params: ParamList): string => joinMatch(dialect, j, 'j', (local) => table.key.parts.length === 1 && local === table.key.column
      ? params.input('id', table.key.type)
      : `(${dialect.select({ columns: [{ expr: own.ref(local, path), alias: 'v' }], from: { table: dialect.table(table.table), alias: 'p' }, joins: [], where: [keyMatch(table.key, own, params, `${table.path}/key`)], orderBy: [] })})`, params, path)
    // A field's own column wins over a stamp of the same name.
    const fieldColumns = new Set(cols.map((c) => c.column.slice(alias.length + 1).toLowerCase()))
    const stamp = uniqueColumns(stamps[alias] ?? []).filter((w) => !fieldColumns.has(w.column.toLowerCase()))
    const all = [...cols, ...stamp.map((w) => ({ column: `${alias}.${w.column}`, type: w.type }))]
    const params = new ParamList(dialect)
    const sets = all.map((c) => ({ column: c.column.slice(alias.length + 1), value: params.input(`col:${c.column}`, c.type) }))
    const where = matching(params)
    const probe = new ParamList(dialect)
    const exists = dialect.select({ columns: [{ expr: '1', alias: 'x' }], from: { table: dialect.table(j.table), alias: 'j' }, joins: [], where: [matching(probe)], orderBy: [], first: true })
    const read = new ParamList(dialect)
    const stamped = stamp.length === 0
      ? undefined
      : {
          statement: { name: `client.update.${alias}.stamped`, sql: dialect.select({ columns: stamp.map((w, i) => ({ expr: dialect.column('j', w.column), alias: `c${i}` })), from: { table: dialect.table(j.table), alias: 'j' }, joins: [], where: [matching(read)], orderBy: [], first: true }), params: read.params },
          columns: stamp.map((w) => w.column)
        }
    return {
      alias,
      update: { name: `client.update.${alias}`, sql: dialect.update(j.table, 'j', sets, [where]), params: params.params, ...writesTo(j.table, all) },
      touched: (now) => Object.fromEntries(stamp.map((w) => [`${alias}.${w.column}`, w.value(now)])),
      exists: { name: `client.update.${alias}.exists`, sql: exists, params: probe.params },
      ...stamped ? { stamped } : {}
    }
  })
}

/**
 * The record's own columns a joined row's `on` takes, read by the record's key inside the
 * write's transaction: a contact row hanging from `name` (Tryton's party id), not from the
 * patient's key. Inputs: `id` (keyArgs); columns `v0`, `v1`… in `columns`' order.
 */
export function ownColumnsRead (table: TableModel, columns: string[], dialect: Dialect): Statement {
  const scope = new Scope(dialect, { table: table.table, joins: {}, where: [], path: table.path }, 'p')
  const params = new ParamList(dialect)
  const sql = dialect.select({
    columns: columns.map((c, i) => ({ expr: scope.ref(c, `${table.path}/joins`), alias: `v${i}` })),
    from: { table: dialect.table(table.table), alias: 'p' },
    joins: [],
    where: [keyMatch(table.key, scope, params, `${table.path}/key`)],
    orderBy: []
  })
  return { name: `${table.path.split('/').pop() ?? 'row'}.linked`, sql, params: params.params }
}
