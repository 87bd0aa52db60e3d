// A table and its joins as seen by one statement: resolves `COL` and `alias.COL` to quoted
// references, and brings in only the joins a statement actually uses.
import type { Dialect, Join } from '../../sql/dialect.js'
import type { ParamList } from '../../sql/statement.js'
import type { ConditionDoc, JoinDoc } from '../schema.js'
import { conditionSql } from './condition.js'
import { leaves, whereList } from '../model.js'
import { segment, reference, type Reference, type Use } from './references.js'
import { onMatch, onPairs as pairsOf } from './join-on.js'

export class CompileError extends Error {
  constructor (readonly path: string, message: string) {
    super(message)
    this.name = 'CompileError'
  }
}

export interface ScopeSource {
  table: string
  joins: Record<string, JoinDoc>
  where: ConditionDoc[]
  path: string
  /** Where the mapping names the table and its filter, when not `<path>/table` and `<path>/where`. */
  tablePath?: string
  wherePath?: string
  /** Each condition's own place, where they come from several (a `valuesOf` lookup: its source's `where`, then the non-blank test at its column). */
  wherePaths?: string[]
  /** Where the joins are declared, when not `<path>/joins`. */
  joinsPath?: string
}

export class Scope {
  private readonly used = new Set<string>()

  constructor (
    readonly dialect: Dialect,
    readonly source: ScopeSource,
    /** Alias of the table; join aliases are prefixed with it so nested scopes never clash. */
    readonly alias: string
  ) {
    reference({ table: source.table, use: 'read', path: source.tablePath ?? `${source.path}/table` })
  }

  /**
   * A column of this scope, quoted; `path` names the mapping place (for errors, and in the
   * record of references with its `use`); `value`: the value read from it.
   */
  ref (column: string, path: string, use: Use = 'read', more: Pick<Reference, 'value' | 'probe' | 'condition' | 'lookup'> = {}): string {
    const dot = column.indexOf('.')
    if (dot < 0) {
      reference({ table: this.source.table, column, use, path, ...more })
      return this.dialect.column(this.alias, column)
    }
    const join = column.slice(0, dot)
    if (!(join in this.source.joins)) {
      throw new CompileError(path, `\`${column}\`: no join called \`${join}\` in ${this.source.path}/joins`)
    }
    this.use(join)
    reference({ table: this.source.joins[join].table, column: column.slice(dot + 1), use, path, ...more })
    return this.dialect.column(this.joinAlias(join), column.slice(dot + 1))
  }

  /** The base filter of the table (the rows that exist for the interface). */
  where (params: ParamList): string[] {
    return this.source.where.map((c, i) => conditionSql(c, this, params, this.wherePathOf(i)))
  }

  /**
   * The base filter split by what it needs: conditions on the table's own columns, and
   * conditions on its joins. A table that is itself LEFT JOINed (the client of an
   * appointment) can only put the first kind in its ON: the joins the second kind reads
   * come after it, so those are tested once every join exists (appointment.ts).
   */
  whereByReach (params: ParamList): { own: string[], joined: string[] } {
    return { own: this.whereOf(params, false), joined: this.whereOf(params, true) }
  }

  /** The base filter's conditions on the table's own columns only (an UPDATE of it). */
  ownWhere (params: ParamList): string[] {
    return this.whereOf(params, false)
  }

  private wherePathOf (i: number): string {
    return this.source.wherePaths?.[i] ?? `${this.source.wherePath ?? `${this.source.path}/where`}/${i}`
  }

  private whereOf (params: ParamList, joined: boolean): string[] {
    return this.source.where.flatMap((c, i) => leaves(c).some((l) => l.column.includes('.')) === joined
      ? [conditionSql(c, this, params, this.wherePathOf(i))]
      : [])
  }

  /** LEFT JOINs for the used aliases, parents before children. Call after every ref/where. */
  joins (params: ParamList): Join[] {
    const order: string[] = []
    const visit = (name: string) => {
      if (order.includes(name)) return
      const from = this.source.joins[name].from
      if (from) visit(from)
      order.push(name)
    }
    ;[...this.used].sort().forEach(visit)
    return order.map((name) => this.renderJoin(name, params))
  }

  private renderJoin (name: string, params: ParamList): Join {
    const j = this.source.joins[name]
    const parent = j.from ? this.joinAlias(j.from) : this.alias
    const path = `${this.source.joinsPath ?? `${this.source.path}/joins`}/${name}`
    const alias = this.joinAlias(name)
    const parentTable = j.from ? this.source.joins[j.from].table : this.source.table
    const on = joinMatch(this.dialect, j, alias, (local, at = `${path}/on/${segment(local)}`) => {
      reference({ table: parentTable, column: local, use: 'join', path: at })
      return this.dialect.column(parent, local)
    }, params, path)
    return { table: this.dialect.table(j.table), alias, on }
  }

  /** A table read by a subquery of this statement (collected child rows), under its own alias. */
  child (table: string, path: string): Scope {
    this.children += 1
    return new Scope(this.dialect, { table, joins: {}, where: [], path }, `${this.alias}_s${this.children}`)
  }

  private children = 0

  private use (name: string): void {
    this.used.add(name)
    const from = this.source.joins[name].from
    if (from) this.use(from)
  }

  private joinAlias (name: string): string {
    return `${this.alias}_${name}`
  }
}

/**
 * The condition that picks a join's row(s) under `alias`: its `on` pairs (the parent's side
 * given by `parentColumn`) and its `where`; with `first`, only the first matching row by
 * `by` (the key breaks ties unless `by` names it), found by a correlated subquery (TOP 1 / LIMIT 1) so the parent
 * row is never repeated. Also what an UPDATE of that row uses (client-write.ts).
 */
export function joinMatch (d: Dialect, j: JoinDoc, alias: string, parentColumn: (local: string, at?: string) => string, params: ParamList, path: string): string {
  const onPairs = (a: string) => {
    const scope = new Scope(d, { table: j.table, joins: {}, where: [], path }, a)
    return pairsOf(j.on).map((p) => onMatch(d, p, parentColumn(p.local), scope.ref(p.remote, `${path}/on/${segment(p.local)}`, 'join', { lookup: 'join' }), params))
  }
  const matching = (a: string) => {
    const scope = new Scope(d, { table: j.table, joins: {}, where: [], path }, a)
    return [...onPairs(a), ...whereList(j.where).map((c, i) => conditionSql(c, scope, params, `${path}/where/${i}`))]
  }
  if (!j.first) return d.and(matching(alias))
  const pick = `${alias}_1`
  const picked = new Scope(d, { table: j.table, joins: {}, where: [], path }, pick)
  const key = picked.ref(j.first.key, `${path}/first/key`, 'key')
  const order = (j.first.by ?? []).map((b) => typeof b === 'string' ? { column: b, desc: false } : b)
    .map((b, i) => { const col = picked.ref(b.column, `${path}/first/by/${i}`, 'filter'); return b.desc === true ? d.descending(col) : col })
  const asOf = j.first.asOf
  const effective = asOf ? picked.ref(asOf.column, `${path}/first/asOf/column`, 'filter') : undefined
  const inForce = asOf && effective ? [`(${d.or([d.isNull(effective), `${effective} <= ${parentColumn(asOf.notAfter, `${path}/first/asOf/notAfter`)}`])})`] : []
  // Undated rows come after dated ones on every dialect (PostgreSQL sorts NULL first when descending).
  const undatedLast = (b: { column: string, desc?: boolean }): string[] => effective && b.desc === true && b.column.toLowerCase() === asOf?.column.toLowerCase() ? [d.caseWhen([{ when: d.isNull(effective), then: '1' }], '0')] : []
  const byItems = (j.first.by ?? []).map((b) => typeof b === 'string' ? { column: b, desc: false } : b)
  const ordered = byItems.flatMap((b, i) => [...undatedLast(b), order[i]])
  const first = d.select({
    columns: [{ expr: key, alias: 'k' }],
    from: { table: d.table(j.table), alias: pick },
    joins: [],
    where: [...matching(pick), ...inForce],
    // SQL Server refuses a column twice in ORDER BY: a key `by` names already orders as it says.
    orderBy: byItems.some((b) => b.column.toLowerCase() === j.first?.key.toLowerCase()) ? ordered : [...ordered, key],
    first: true
  })
  // The parent's columns as well: a key unique only among the parent's rows (a phone's
  // (patient, seq)) then still picks the parent's own row.
  return d.and([...onPairs(alias), `${d.column(alias, j.first.key)} = (${first})`])
}
