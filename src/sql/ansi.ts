// The SQL every dialect writes alike unless it says otherwise: standard SQL, the way Kysely's
// DefaultQueryCompiler is the base its dialects subclass. A dialect is `{ ...ansi, name, … }`
// overriding only what its database does differently (sqlite/, mssql/, mysql/, postgres/).
import { LIST_SEPARATOR, type Dialect, type SelectSpec } from './dialect.js'
import { renderSelectBody } from './render.js'

export const quoteDouble = (name: string): string => `"${name.replace(/"/g, '""')}"`

export const ansi: Omit<Dialect, 'name' | 'placeholder' | 'foldedLike' | 'minutesBetween' | 'exact'> = {
  table: (name) => name.split('.').map(quoteDouble).join('.'),
  ident: quoteDouble,
  column (alias, column) { return `${this.ident(alias)}.${this.ident(column)}` },
  select (spec: SelectSpec) {
    const body = renderSelectBody(this as Dialect, spec)
    const order = spec.orderBy.length > 0 ? ` ORDER BY ${spec.orderBy.join(', ')}` : ''
    const page = spec.page
      ? ` OFFSET ${spec.page.offset} ROWS FETCH NEXT ${spec.page.limit} ROWS ONLY`
      : spec.first ? ' FETCH FIRST 1 ROWS ONLY' : ''
    return body + order + page
  },
  trim: (e) => `TRIM(${e})`,
  rtrim: (e) => `RTRIM(${e})`,
  lower: (e) => `LOWER(${e})`,
  asText: (e) => `CAST(${e} AS VARCHAR(4000))`,
  concat: (parts) => parts.map((p) => `COALESCE(${p}, '')`).join(' || '),
  textList (expr, from, where, orderBy) {
    const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
    const o = orderBy.length > 0 ? ` WITHIN GROUP (ORDER BY ${orderBy.join(', ')})` : ''
    return `(SELECT LISTAGG(${this.asText(expr)}, '${LIST_SEPARATOR}')${o} FROM ${from.table} ${this.ident(from.alias)}${w})`
  },
  dmyAsIso: (e) => `(SUBSTRING(${e} FROM 7 FOR 4) || '-' || SUBSTRING(${e} FROM 4 FOR 2) || '-' || SUBSTRING(${e} FROM 1 FOR 2))`,
  lockHint: '',
  insert (table, columns, values, returning) {
    const ret = returning ? ` RETURNING ${this.ident(returning)} AS ${this.ident('id')}` : ''
    return `INSERT INTO ${this.table(table)} (${columns.map((c) => this.ident(c)).join(', ')}) VALUES (${values.join(', ')})${ret}`
  },
  insertSelect (table, columns, select) {
    return `INSERT INTO ${this.table(table)} (${columns.map((c) => this.ident(c)).join(', ')}) ${select}`
  },
  update (table, alias, sets, where) {
    const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
    return `UPDATE ${this.table(table)} AS ${this.ident(alias)} SET ${sets.map((s) => `${this.ident(s.column)} = ${s.value}`).join(', ')}${w}`
  },
  delete (table, alias, where) {
    return `DELETE FROM ${this.table(table)} AS ${this.ident(alias)} WHERE ${where.join(' AND ')}`
  },
  updateReturning (table, alias, sets, where, returning) {
    return `${this.update(table, alias, sets, where)} RETURNING ${this.ident(returning)} AS ${this.ident('id')}`
  },
  nextSequenceValue (sequence) {
    return `SELECT NEXT VALUE FOR ${this.table(sequence)} AS ${this.ident('id')}`
  },
  and: (parts) => parts.join(' AND '),
  or: (parts) => parts.join(' OR '),
  not: (e) => `NOT (${e})`,
  isNull: (e) => `${e} IS NULL`,
  isNotNull: (e) => `${e} IS NOT NULL`,
  notIn: (e, items) => `${e} NOT IN (${items.join(', ')})`,
  like: (e, pattern) => `${e} LIKE ${pattern}`,
  // A literal prefix and a trailing %: SQL Server and MySQL seek an index with it (a dynamic
  // range for a parameter); PostgreSQL does when the index compares bytes (text_pattern_ops
  // or the C collation), which `ponte check` recommends.
  startsWith: (e, input) => `${e} LIKE ${input('like')}`,
  equalsAny (e, items) { return this.inList(e, items.map((item) => item('value'))) },
  padsEquality: false,
  sortOnly: (e) => e,
  prefixIndexClass: () => undefined,
  markerText (e) { return this.asText(e) },
  markerFrom: (column, input) => `${column} >= ${input}`,
  createIndex (name, table, column, opclass) {
    return `CREATE INDEX ${this.ident(name)} ON ${this.table(table)} (${this.ident(column)}${opclass ? ` ${opclass}` : ''})`
  },
  // An expression in its own parentheses: PostgreSQL requires them around an expression that
  // is not a bare function call, SQLite reads them as the expression.
  foldedIndex (name, table, column) {
    return `CREATE INDEX ${this.ident(name)} ON ${this.table(table)} ((${this.lower(this.trim(this.ident(column)))}))`
  },
  exists: (select) => `EXISTS (${select})`,
  caseWhen: (branches, otherwise) =>
    `CASE ${branches.map((b) => `WHEN ${b.when} THEN ${b.then}`).join(' ')}${otherwise === undefined ? '' : ` ELSE ${otherwise}`} END`,
  caseOf: (subject, branches) => `CASE ${subject} ${branches.map((b) => `WHEN ${b.when} THEN ${b.then}`).join(' ')} END`,
  inList: (e, items) => `${e} IN (${items.join(', ')})`,
  always: '1 = 1',
  never: '1 = 0',
  coalesce: (items) => `COALESCE(${items.join(', ')})`,
  nullIf: (e, value) => `NULLIF(${e}, ${value})`,
  upper: (e) => `UPPER(${e})`,
  leading: (e, length) => `SUBSTRING(${e} FROM 1 FOR ${length})`,
  // GREATEST: a negative length is an error on PostgreSQL.
  strip: (e, head, tail) => tail === 0 ? `SUBSTRING(${e} FROM ${head + 1})` : `SUBSTRING(${e} FROM ${head + 1} FOR GREATEST(CHAR_LENGTH(${e}) - ${head + tail}, 0))`,
  notTrue: (c) => `CASE WHEN ${c} THEN 0 ELSE 1 END = 1`,
  count: () => 'COUNT(*)',
  countDistinct: (e) => `COUNT(DISTINCT ${e})`,
  max: (e) => `MAX(${e})`,
  charLength: (e) => `CHAR_LENGTH(${e})`,
  min: (e) => `MIN(${e})`,
  descending: (e) => `${e} DESC`,
  null: 'NULL'
}
