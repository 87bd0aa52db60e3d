import { LIST_SEPARATOR, type Dialect, type SelectSpec } from '../dialect.js'
import { renderSelectBody } from '../render.js'
import { ansi } from '../ansi.js'

export interface MssqlDialectOptions {
  /** SQL Server 2008 R2 has no OFFSET … FETCH: page with ROW_NUMBER() instead. */
  legacyPaging?: boolean
  /** Collation used for accent- and case-insensitive name search. */
  searchCollation?: string
}

export function mssqlDialect (options: MssqlDialectOptions = {}): Dialect {
  const collation = options.searchCollation ?? 'Latin1_General_CI_AI'
  return {
    ...ansi,
    name: 'mssql',
    table: (name) => name.split('.').map(quote).join('.'),
    ident: quote,
    column: (alias, column) => `${quote(alias)}.${quote(column)}`,
    placeholder: (i) => `@p${i}`,
    select (spec: SelectSpec) {
      // TOP 1 exists on every version (2008 R2 included).
      if (spec.first) return renderSelectBody(this, spec).replace(/^SELECT /, 'SELECT TOP 1 ') + orderBy(spec)
      return options.legacyPaging ? legacySelect(this, spec) : modernSelect(this, spec)
    },
    // LTRIM(RTRIM()) rather than TRIM(): TRIM arrived in SQL Server 2017.
    trim: (e) => `LTRIM(RTRIM(${e}))`,
    rtrim: (e) => `RTRIM(${e})`,
    lower: (e) => `LOWER(${e})`,
    // SQL Server indexes an expression as a computed column; the optimizer matches the search's
    // LOWER(LTRIM(RTRIM(col))) to it. Not PERSISTED: an index on a deterministic column needs none.
    foldedIndex (name, table, column) {
      const folded = this.ident(`${column}_folded`)
      return `ALTER TABLE ${this.table(table)} ADD ${folded} AS ${this.lower(this.trim(this.ident(column)))}; ` +
        `CREATE INDEX ${this.ident(name)} ON ${this.table(table)} (${folded})`
    },
    // Style 1 writes a rowversion as '0x…' hex and reads it back as binary; style 121 keeps a datetime's milliseconds.
    markerText: (e, type) => type === 'rowversion' ? `CONVERT(VARCHAR(18), ${e}, 1)` : type === 'datetime' ? `CONVERT(VARCHAR(23), ${e}, 121)` : `CAST(${e} AS VARCHAR(20))`,
    markerFrom: (column, input, type) => type === 'rowversion' ? `${column} >= CONVERT(BINARY(8), ${input}, 1)` : `${column} >= ${input}`,
    charLength: (e) => `LEN(${e})`,
    padsEquality: true,
    asText: (e) => `CAST(${e} AS NVARCHAR(4000))`,
    // ISNULL(x, '') + … rather than CONCAT(): CONCAT arrived in SQL Server 2012.
    concat: (parts) => parts.map((p) => `ISNULL(CAST(${p} AS NVARCHAR(4000)), N'')`).join(' + '),
    foldedLike: (e, pattern) => `LTRIM(RTRIM(CAST(${e} AS NVARCHAR(4000)))) COLLATE ${collation} LIKE ${pattern}`,
    minutesBetween: (from, to) => `DATEDIFF(minute, ${from}, ${to})`,
    // A binary collation: code points compared, case and accents counting (VARCHAR and NVARCHAR alike).
    exact: (e) => `${e} COLLATE Latin1_General_BIN2`,
    leading: (e, length) => `SUBSTRING(${e}, 1, ${length})`,
    // SUBSTRING needs a length (a negative one is an error); LEN leaves out trailing spaces, as `=` does.
    strip: (e, head, tail) => tail === 0 ? `SUBSTRING(${e}, ${head + 1}, LEN(${e}))` : `SUBSTRING(${e}, ${head + 1}, CASE WHEN LEN(${e}) > ${head + tail} THEN LEN(${e}) - ${head + tail} ELSE 0 END)`,
    // FOR XML PATH rather than STRING_AGG (SQL Server 2017+); TYPE … value() undoes XML escaping.
    textList (expr, from, where, orderBy) {
      const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
      const o = orderBy.length > 0 ? ` ORDER BY ${orderBy.join(', ')}` : ''
      return `STUFF((SELECT N'${LIST_SEPARATOR}' + CAST(${expr} AS NVARCHAR(4000)) FROM ${from.table} ${quote(from.alias)}${w}${o} FOR XML PATH(''), TYPE).value('.', 'NVARCHAR(MAX)'), 1, 1, N'')`
    },
    dmyAsIso: (e) => `(SUBSTRING(${e}, 7, 4) + '-' + SUBSTRING(${e}, 4, 2) + '-' + SUBSTRING(${e}, 1, 2))`,
    // Update locks held to the end of the transaction, on reads by key (the appointment being
    // changed, a max + 1 key). Booking's reads of a day take none: its claims serialise it.
    lockHint: ' WITH (UPDLOCK, HOLDLOCK)',
    // An application lock of the current database, owned by the transaction (released when it
    // ends): the answer is >= 0 once held, negative when refused (-1 timed out, -2 cancelled,
    // -3 chosen as a deadlock victim, -999 a parameter error). It waits as long as the request
    // may (requestTimeoutMs), as a row lock would.
    claim: {
      take: (name) => `DECLARE @ponte_claimed INT; EXEC @ponte_claimed = sp_getapplock @Resource = ${name}, @LockMode = 'Exclusive', @LockOwner = 'Transaction'; SELECT @ponte_claimed AS [claimed]`
    },
    insert (table, columns, values, returning) {
      const insert = `INSERT INTO ${this.table(table)} (${columns.map(quote).join(', ')})`
      if (!returning) return `${insert} VALUES (${values.join(', ')})`
      // OUTPUT … INTO a table variable: a bare OUTPUT fails on tables with triggers, common in legacy systems.
      return `DECLARE @ponte_ids TABLE ([id] NVARCHAR(450)); ${insert} OUTPUT INSERTED.${quote(returning)} INTO @ponte_ids ([id]) VALUES (${values.join(', ')}); SELECT [id] FROM @ponte_ids`
    },
    update (table, alias, sets, where) {
      const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
      return `UPDATE ${quote(alias)} SET ${sets.map((s) => `${quote(s.column)} = ${s.value}`).join(', ')} FROM ${this.table(table)} ${quote(alias)}${w}`
    },
    delete (table, alias, where) {
      return `DELETE ${quote(alias)} FROM ${this.table(table)} ${quote(alias)} WHERE ${where.join(' AND ')}`
    },
    updateReturning (table, alias, sets, where, returning) {
      const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
      // OUTPUT … INTO a table variable, as for inserts: a bare OUTPUT fails on tables with triggers.
      return `DECLARE @ponte_ids TABLE ([id] NVARCHAR(450)); UPDATE ${quote(alias)} SET ${sets.map((s) => `${quote(s.column)} = ${s.value}`).join(', ')} OUTPUT INSERTED.${quote(returning)} INTO @ponte_ids ([id]) FROM ${this.table(table)} ${quote(alias)}${w}; SELECT [id] FROM @ponte_ids`
    },
    nextSequenceValue (sequence) {
      if (options.legacyPaging) throw new Error('SQL Server 2008 R2 has no sequences: use identity, max or keyTable key generation')
      return `SELECT NEXT VALUE FOR ${sequence.split('.').map(quote).join('.')} AS [id]`
    }
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
  // ROW_NUMBER() would make every row distinct; no compiled statement pages a DISTINCT.
  if (spec.distinct) throw new Error('legacy paging of a DISTINCT select is not supported')
  const over = spec.orderBy.length > 0 ? spec.orderBy.join(', ') : '(SELECT NULL)'
  const inner = renderSelectBody(d, spec, [`ROW_NUMBER() OVER (ORDER BY ${over}) AS [__rn]`])
  const outer = spec.columns.map((c) => quote(c.alias)).join(', ')
  return `SELECT ${outer} FROM (${inner}) AS [__page] WHERE [__rn] > ${spec.page.offset} AND [__rn] <= ${spec.page.offset} + ${spec.page.limit} ORDER BY [__rn]`
}

function orderBy (spec: SelectSpec): string {
  return spec.orderBy.length > 0 ? ` ORDER BY ${spec.orderBy.join(', ')}` : ''
}
