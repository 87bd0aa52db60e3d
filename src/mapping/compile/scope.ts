// A table and its joins as seen by one statement: resolves `COL` and `alias.COL` to quoted
// references, and brings in only the joins a statement actually uses.
import type { Dialect, Join } from '../../sql/dialect.js'
import type { ParamList } from '../../sql/statement.js'
import type { ConditionDoc, JoinDoc } from '../schema.js'
import { conditionSql } from './condition.js'

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
}

export class Scope {
  private readonly used = new Set<string>()

  constructor (
    readonly dialect: Dialect,
    readonly source: ScopeSource,
    /** Alias of the table; join aliases are prefixed with it so nested scopes never clash. */
    readonly alias: string
  ) {}

  /** A column of this scope, quoted; `path` names the mapping place for errors. */
  ref (column: string, path: string): string {
    const dot = column.indexOf('.')
    if (dot < 0) return this.dialect.column(this.alias, column)
    const join = column.slice(0, dot)
    if (!(join in this.source.joins)) {
      throw new CompileError(path, `\`${column}\`: no join called \`${join}\` in ${this.source.path}/joins`)
    }
    this.use(join)
    return this.dialect.column(this.joinAlias(join), column.slice(dot + 1))
  }

  /** The base filter of the table (the rows that exist for the interface). */
  where (params: ParamList): string[] {
    return this.source.where.map((c, i) => conditionSql(c, this, params, `${this.source.path}/where/${i}`))
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
    const d = this.dialect
    const parent = j.from ? this.joinAlias(j.from) : this.alias
    const inner = new Scope(d, { table: j.table, joins: {}, where: [], path: `${this.source.path}/joins/${name}` }, this.joinAlias(name))
    const on = Object.entries(j.on).map(([local, remote]) => `${d.column(parent, local)} = ${d.column(inner.alias, remote)}`)
    const extra = (j.where ? (Array.isArray(j.where) ? j.where : [j.where]) : [])
      .map((c, i) => conditionSql(c, inner, params, `${inner.source.path}/where/${i}`))
    return { table: d.table(j.table), alias: inner.alias, on: [...on, ...extra].join(' AND ') }
  }

  private use (name: string): void {
    this.used.add(name)
    const from = this.source.joins[name].from
    if (from) this.use(from)
  }

  private joinAlias (name: string): string {
    return `${this.alias}_${name}`
  }
}
