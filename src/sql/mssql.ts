import type { Dialect, SelectSpec } from './dialect.js'
import { renderSelectBody } from './render.js'

export interface MssqlDialectOptions {
  /** SQL Server 2008 R2 has no OFFSET … FETCH: page with ROW_NUMBER() instead. */
  legacyPaging?: boolean
  /** Collation used for accent- and case-insensitive name search. */
  searchCollation?: string
}

export function mssqlDialect (options: MssqlDialectOptions = {}): Dialect {
  const collation = options.searchCollation ?? 'Latin1_General_CI_AI'
  return {
    name: 'mssql',
    table: (name) => name.split('.').map(quote).join('.'),
    ident: quote,
    column: (alias, column) => `${quote(alias)}.${quote(column)}`,
    placeholder: (i) => `@p${i}`,
    select (spec: SelectSpec) {
      return options.legacyPaging ? legacySelect(this, spec) : modernSelect(this, spec)
    },
    // LTRIM(RTRIM()) rather than TRIM(): TRIM arrived in SQL Server 2017.
    trim: (e) => `LTRIM(RTRIM(${e}))`,
    rtrim: (e) => `RTRIM(${e})`,
    lower: (e) => `LOWER(${e})`,
    asText: (e) => `CAST(${e} AS NVARCHAR(4000))`,
    // ISNULL(x, '') + … rather than CONCAT(): CONCAT arrived in SQL Server 2012.
    concat: (parts) => parts.map((p) => `ISNULL(CAST(${p} AS NVARCHAR(4000)), N'')`).join(' + '),
    foldedLike: (e, pattern) => `CAST(${e} AS NVARCHAR(4000)) COLLATE ${collation} LIKE ${pattern}`
  }
}

export const mssql = mssqlDialect()

function quote (name: string): string {
  return `[${name.replace(/]/g, ']]')}]`
}

function modernSelect (d: Dialect, spec: SelectSpec): string {
  const body = renderSelectBody(d, spec)
  if (!spec.page) return body + orderBy(spec)
  // OFFSET … FETCH needs an ORDER BY; a stable one is the caller's job, this is a guard.
  const order = spec.orderBy.length > 0 ? orderBy(spec) : ' ORDER BY (SELECT NULL)'
  return `${body}${order} OFFSET ${spec.page.offset} ROWS FETCH NEXT ${spec.page.limit} ROWS ONLY`
}

function legacySelect (d: Dialect, spec: SelectSpec): string {
  if (!spec.page) return renderSelectBody(d, spec) + orderBy(spec)
  const over = spec.orderBy.length > 0 ? spec.orderBy.join(', ') : '(SELECT NULL)'
  const inner = renderSelectBody(d, spec, [`ROW_NUMBER() OVER (ORDER BY ${over}) AS [__rn]`])
  const outer = spec.columns.map((c) => quote(c.alias)).join(', ')
  return `SELECT ${outer} FROM (${inner}) AS [__page] WHERE [__rn] > ${spec.page.offset} AND [__rn] <= ${spec.page.offset} + ${spec.page.limit} ORDER BY [__rn]`
}

function orderBy (spec: SelectSpec): string {
  return spec.orderBy.length > 0 ? ` ORDER BY ${spec.orderBy.join(', ')}` : ''
}
