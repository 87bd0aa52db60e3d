// A mapped value, compiled twice from one definition: to a SQL expression (for filters and
// relations) and to a reader of selected columns (for responses). Readers do the lenient
// work SQL is bad at (templates with blank parts, sloppy legacy text); SQL does the
// selective work JS cannot (filters that use the database's indexes).
import type { ParamList } from '../../sql/statement.js'
import { LIST_SEPARATOR } from '../../sql/dialect.js'
import { dayNumber, minutesOf as minutesOfHour, readDate, readHour } from '../../normalise/datetime.js'
import { isTextType, partsOf, ruleOutcome, valueAt, whereList } from '../model.js'
import type { LiteralValue, SqlTypeName } from '../schema.js'
import type { Value } from '../model.js'
import { bindLiteral, conditionSql, conditionTest } from './condition.js'
import { CompileError, type Scope } from './scope.js'
import { segment, type Lookup } from './references.js'
import { onMatch, onPairs } from './join-on.js'
import { memoText } from './memo.js'
import { columnGetter } from './entity.js'
import { codeMatcher, codeRule, keysInOrder, mappingCode, storedCodeSql } from './codes.js'
import { extractor } from '../extract.js'

export type Row = Record<string, unknown>
export type Reader = (row: Row) => unknown

/** The select list of one statement; the same expression is selected once. */
export class Columns {
  readonly list: { expr: string, alias: string }[] = []
  private readonly byExpr = new Map<string, string>()

  add (expr: string): string {
    let alias = this.byExpr.get(expr)
    if (alias === undefined) {
      alias = `c${this.list.length}`
      this.byExpr.set(expr, alias)
      this.list.push({ expr, alias })
    }
    return alias
  }
}

export { isTextType }

// ---- SQL ----

/**
 * `single`: the value stands for one value (a coalesce item, a rule's outcome), so a `collect`
 * is its first value, as the reader has it; alone (phones) it is the whole list. `lookup`: how a
 * statement seeks rows by the value (references.ts).
 */
export function valueSql (v: Value, scope: Scope, params: ParamList, single = false, lookup?: Lookup): string {
  const d = scope.dialect
  if (v.extract !== undefined) throw new CompileError(`${v.path}/extract`, '`extract` takes the value out after the row is read: it cannot be compared in SQL here (a filter, a search, a date range, a relation); read the column whole, or keep `extract` to values only read')
  let expr: string
  // Only a plain column is a seek an index can serve: what else the value is stays a read.
  if (v.column !== undefined) expr = scope.ref(v.column, `${v.path}/column`, lookup ? 'filter' : 'read', lookup ? { value: v, lookup } : { value: v })
  else if (v.coalesce) expr = coalesceSql(v, scope, params)
  else if (v.template !== undefined) expr = templateSql(v, scope, params)
  else if (v.rules) {
    // Rules after the first unconditional one never apply (and bind nothing).
    const cut = v.rules.findIndex((r) => !r.when)
    const rules = cut < 0 ? v.rules : v.rules.slice(0, cut + 1)
    // SQL Server types a CASE by its branches: text and numbers mixed would make it convert
    // every text branch to a number and fail, so a CASE with any text outcome is all text,
    // each branch cast alike (MySQL refuses a CASE of columns with different collations).
    const outcomes = rules.map((r, i) => ruleOutcome(r, `${v.path}/rules/${i}`))
    const textual = rules.some((r, i) => typeof r.value === 'string' || (outcomes[i] !== undefined && yieldsText(outcomes[i] as Value)))
    const branches = rules.map((r, i) => {
      const outcome = outcomes[i]
      const then = outcome
        ? (textual ? d.asText(valueSql(outcome, scope, params, true)) : valueSql(outcome, scope, params, true))
        : r.column !== undefined
          ? (textual ? d.asText(scope.ref(r.column, `${v.path}/rules/${i}/column`)) : scope.ref(r.column, `${v.path}/rules/${i}/column`))
          : r.value !== undefined ? bindLiteral(textual ? String(r.value) : r.value, params) : d.null
      // `then` is bound before `when`: the parameter order the goldens record.
      return { when: r.when ? conditionSql(r.when, scope, params, `${v.path}/rules/${i}/when`) : undefined, then }
    })
    const whens = branches.filter((b): b is { when: string, then: string } => b.when !== undefined)
    const otherwise = branches.find((b) => b.when === undefined)?.then
    expr = whens.length === 0 ? (otherwise as string) : d.caseWhen(whens, otherwise)
  } else if (v.sql) expr = sqlEscape(v, scope)
  else if (v.collect) expr = single ? collectFirstSql(v, scope, params) : collectSql(v, scope, params)
  else if (v.minutes) {
    const [from, to] = partsOf(v)
    expr = d.minutesBetween(valueSql(from, scope, params, true), valueSql(to, scope, params, true))
  } else expr = bindLiteral(v.value as LiteralValue, params)

  if (v.map) expr = mapSql(v, v.map, expr, scope, params)
  return expr
}

/** A stored code → the interface's value, compared as the value's `codes` and `match` say (codes.ts). */
function mapSql (v: Value, map: Record<string, LiteralValue>, expr: string, scope: Scope, params: ParamList): string {
  const d = scope.dialect
  if (v.type !== undefined && !isTextType(v.type)) {
    return d.caseOf(expr, Object.entries(map).map(([k, out]) => ({ when: params.constant(Number(k), v.type as SqlTypeName), then: bindLiteral(out, params) })))
  }
  const rule = codeRule(v)
  if (!rule.prefix) {
    return d.caseOf(storedCodeSql(d, expr, rule.exact), Object.entries(map).map(([k, out]) => ({ when: params.constant(mappingCode(k, rule.exact), 'text'), then: bindLiteral(out, params) })))
  }
  // Longer keys first: `BS` decides before `B` does.
  return d.caseWhen(keysInOrder(Object.keys(map), rule).map((k) => {
    const then = bindLiteral(map[k], params)
    const stored = storedCodeSql(d, expr, rule.exact, params.constant(k.length, 'int'))
    return { when: `${stored} = ${params.constant(mappingCode(k, rule.exact), 'text')}`, then }
  }))
}

const NOT_TEXT_FORMATS = new Set(['date', 'datetime', 'time', 'int', 'hhmm', 'minutes'])

/** Whether blank means "NULL or only spaces" (text) rather than only NULL (dates, numbers). */
function blankIsText (v: Value): boolean {
  if (v.format !== undefined && NOT_TEXT_FORMATS.has(v.format)) return false
  if (v.type !== undefined && !isTextType(v.type)) return false
  return v.minutes === undefined && (v.value === undefined || typeof v.value === 'string')
}

/** Whether the value's SQL is already text, so a CASE mixing it with columns needs no cast. */
function yieldsText (v: Value): boolean {
  if (v.template !== undefined || v.collect !== undefined) return true
  if (v.coalesce) return blankIsText(v)
  if (v.value !== undefined) return typeof v.value === 'string'
  return v.rules !== undefined && v.rules.some((r, i) => {
    const outcome = ruleOutcome(r, `${v.path}/rules/${i}`)
    return typeof r.value === 'string' || (outcome !== undefined && yieldsText(outcome))
  })
}

// The first item that is not blank. Text items are trimmed and '' counts as blank (as the
// reader does); a coalesce declared as a date or number compares its items untouched, so
// the database keeps their type (the ends of `minutes`). Items that are values themselves
// make every item text of one kind (MySQL refuses a COALESCE of different collations).
function coalesceSql (v: Value, scope: Scope, params: ParamList): string {
  const d = scope.dialect
  const text = blankIsText(v)
  const nested = (v.coalesce ?? []).some((c) => typeof c !== 'string')
  const items = (v.coalesce ?? []).map((c, i) => {
    const item = valueAt(c, `${v.path}/coalesce/${i}`)
    const sql = item.template !== undefined ? templateSql(item, scope, params, true) : valueSql(item, scope, params, true)
    if (!text) return sql
    return d.nullIf(d.trim(nested ? d.asText(sql) : sql), "''")
  })
  return d.coalesce(items)
}

/**
 * Parts concatenated. With `nullWhenBlank` (a template that is one item of a coalesce) it is
 * NULL when every part is blank, as the reader has it, even when the template has text of its
 * own (`Dr. {given_name}`): the coalesce then moves on to its next item.
 */
function templateSql (v: Value, scope: Scope, params: ParamList, nullWhenBlank = false): string {
  const d = scope.dialect
  const parts = templateParts(v.template as string, v.path)
  const concat = d.concat(parts.map((p) => p.column !== undefined ? scope.ref(p.column, `${v.path}/template`) : params.constant(p.text as string, 'text')))
  const literal = parts.some((p) => p.text !== undefined && p.text.trim() !== '')
  if (!nullWhenBlank || !literal) return concat
  const any = parts.filter((p) => p.column !== undefined).map((p) => d.nullIf(d.trim(d.asText(scope.ref(p.column as string, `${v.path}/template`))), "''"))
  return d.caseWhen([{ when: d.isNull(d.coalesce(any)), then: d.null }], concat)
}

// Child rows as one text in the parent's row: the parent is never repeated, and the list
// costs no extra round trip.
function collectSql (v: Value, scope: Scope, params: ParamList): string {
  const { c, child, value, match, orderBy } = collected(v, scope, params)
  const d = scope.dialect
  return d.textList(value, { table: d.table(c.table), alias: child.alias }, match, orderBy)
}

// The first value that is not blank, in `by` order: what the reader takes from the list.
function collectFirstSql (v: Value, scope: Scope, params: ParamList): string {
  const { c, child, value, match, orderBy } = collected(v, scope, params)
  const d = scope.dialect
  const where = [...match, d.isNotNull(d.nullIf(d.trim(d.asText(value)), "''"))]
  return `(${d.select({ columns: [{ expr: value, alias: 'v' }], from: { table: d.table(c.table), alias: child.alias }, joins: [], where, orderBy, first: true })})`
}

/** A `collect`'s child rows: the column collected, the rows of this parent row, their order. */
function collected (v: Value, scope: Scope, params: ParamList): { c: NonNullable<Value['collect']>, child: Scope, value: string, match: string[], orderBy: string[] } {
  const c = v.collect as NonNullable<Value['collect']>
  const at = `${v.path}/collect`
  const child = scope.child(c.table, at)
  const match = [
    ...onPairs(c.on).map((p) => onMatch(scope.dialect, p, scope.ref(p.local, `${at}/on/${segment(p.local)}`, 'join'), child.ref(p.remote, `${at}/on/${segment(p.local)}`, 'join', { lookup: 'join' }), params)),
    ...whereList(c.where).map((w, i) => conditionSql(w, child, params, `${at}/where/${i}`))
  ]
  const value = child.ref(c.column, `${at}/column`)
  return { c, child, value, match, orderBy: (c.by ?? []).map((b) => child.ref(b, `${at}/by`, 'filter')) }
}

/** Every value a `collect` source holds (a plain value: itself, if not blank). */
export function valuesReader (v: Value, scope: Scope, cols: Columns, params: ParamList): (row: Row) => unknown[] {
  if (!v.collect) {
    const read = valueReader(v, scope, cols)
    return (row) => { const x = read(row); return x === undefined || x === null ? [] : [x] }
  }
  const list = columnGetter(cols.add(collectSql(v, scope, params)))
  return (row) => splitList(list(row))
}

function splitList (x: unknown): string[] {
  if (x === null || x === undefined) return []
  return String(x).split(LIST_SEPARATOR).map((s) => s.trim()).filter((s) => s !== '')
}

function sqlEscape (v: Value, scope: Scope): string {
  const text = v.sql?.[scope.dialect.name] ?? v.sql?.default
  if (text === undefined) throw new CompileError(`${v.path}/sql`, `no SQL given for the ${scope.dialect.name} dialect`)
  // {COL} and {alias.COL} stand for columns of this resource, whatever aliases a statement uses.
  return `(${text.replace(/\{([^}]+)\}/g, (_, col: string) => scope.ref(col.trim(), `${v.path}/sql`))})`
}

// ---- JS ----

export function valueReader (v: Value, scope: Scope, cols: Columns, params?: ParamList): Reader {
  const column = (name: string, path: string, value?: Value): Reader => {
    return columnGetter(cols.add(scope.ref(name, path, 'read', { value })))
  }
  let read: Reader
  if (v.column !== undefined) read = column(v.column, `${v.path}/column`, v)
  else if (v.coalesce) {
    const readers = partsOf(v).map((item, i) => typeof (v.coalesce as unknown[])[i] === 'string' ? column(item.column as string, `${item.path}/column`, item) : valueReader(item, scope, cols, params))
    read = (row) => {
      for (const r of readers) {
        const x = r(row)
        if (!isBlank(x)) return x
      }
      return undefined
    }
  } else if (v.template !== undefined) read = templateReader(v, (name) => column(name, `${v.path}/template`))
  else if (v.rules) {
    const rulesOut = (r: Rule, i: number): Reader => {
      const outcome = ruleOutcome(r, `${v.path}/rules/${i}`)
      if (outcome) return valueReader(outcome, scope, cols, params)
      return r.column !== undefined ? column(r.column, `${v.path}/rules/${i}/column`) : () => r.value
    }
    const rules = v.rules.map((r, i) => ({
      test: r.when ? conditionTest(r.when, `${v.path}/rules/${i}/when`, (leaf, at) => cols.add(scope.ref(leaf.column, at, 'filter', { condition: leaf }))) : () => true,
      out: rulesOut(r, i)
    }))
    read = (row) => {
      for (const r of rules) if (r.test(row)) return r.out(row)
      return undefined
    }
  } else if (v.sql) {
    read = columnGetter(cols.add(sqlEscape(v, scope)))
  } else if (v.minutes) {
    const [from, to] = partsOf(v).map((end) => valueReader(end, scope, cols, params))
    read = (row) => minutesBetween(from(row), to(row))
  } else if (v.collect) {
    // As a single value: the first one collected (the list is for `phones`).
    if (!params) throw new CompileError(`${v.path}/collect`, 'a collected value cannot be read here: use it in `phones` or a field of clients and lookups')
    const all = valuesReader(v, scope, cols, params)
    read = (row) => all(row)[0]
  } else {
    const constant = v.value
    read = () => constant
  }
  return withConverters(v, read)
}

type Rule = NonNullable<Value['rules']>[number]

// Blank as the SQL has it: NULL, or text of only spaces (a date or number is never blank).
function isBlank (x: unknown): boolean {
  return x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
}

function minutesBetween (from: unknown, to: unknown): number | undefined {
  const at = (x: unknown): number | undefined => {
    const date = readDate(x, 'datetime')
    const hour = readHour(x, 'datetime')
    return date === undefined || hour === undefined ? undefined : dayNumber(date) * 1440 + minutesOfHour(hour)
  }
  const a = at(from)
  const b = at(to)
  return a === undefined || b === undefined ? undefined : b - a
}

function withConverters (v: Value, read: Reader): Reader {
  const sentinels = v.nullIf
  // Stored codes match as in SQL (codes.ts): trailing spaces aside, case as `codes` says.
  const map = v.map
  const code = map ? codeMatcher(Object.keys(map), codeRule(v)) : undefined
  // The part of the text the mapping's pattern captures, before anything else reads it.
  const part = v.extract === undefined ? undefined : extractor(v.extract)
  if (!sentinels && !map && !part) return read
  // A function of the stored value alone: worked out once per distinct stored text.
  const convert = memoText((x: unknown): unknown => {
    if (part) x = part(x)
    if (sentinels && isSentinel(x, sentinels)) x = undefined
    if (map && code && x !== null && x !== undefined) {
      const key = code(x)
      x = key === undefined ? undefined : map[key]
    }
    return x
  })
  return (row) => convert(read(row))
}

function isSentinel (x: unknown, sentinels: LiteralValue[]): boolean {
  if (x === null || x === undefined) return true
  const text = x instanceof Date ? '' : String(x).trim()
  return sentinels.some((s) => typeof s === 'string' ? (x instanceof Date ? dateSentinel(x, s) : text === s.trim()) : Number(x) === Number(s))
}

function dateSentinel (d: Date, s: string): boolean {
  const iso = `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
  return s.startsWith(iso)
}

interface TemplatePart { text?: string, column?: string }

/** The columns a template reads, in order (`{given} {family}` → given, family). */
export function templateColumns (template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1].trim())
}

export function templateParts (template: string, path: string): TemplatePart[] {
  const parts: TemplatePart[] = []
  const re = /\{([^{}]+)\}/g
  let last = 0
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > last) parts.push({ text: template.slice(last, m.index) })
    parts.push({ column: m[1].trim() })
    last = m.index + m[0].length
  }
  if (last < template.length) parts.push({ text: template.slice(last) })
  if (!parts.some((p) => p.column !== undefined)) throw new CompileError(path, 'a template needs at least one {COLUMN}')
  return parts
}

// Text between two blank-tolerant parts is a separator: it is written only when there is
// something on both sides, so `{RUA}, {NUMERO} - {BAIRRO}` never reads `Rua X,  - `.
function templateReader (v: Value, column: (name: string) => Reader): Reader {
  const parts = templateParts(v.template as string, v.path)
  const lead = parts[0].text ?? ''
  const tail = parts.length > 1 && parts[parts.length - 1].text !== undefined ? parts[parts.length - 1].text as string : ''
  const items: { sep: string, read: Reader }[] = []
  let sep = ''
  for (const p of parts.slice(parts[0].text !== undefined ? 1 : 0)) {
    if (p.column !== undefined) { items.push({ sep, read: column(p.column) }); sep = '' } else sep = p.text ?? ''
  }
  return (row) => {
    let out = ''
    for (const it of items) {
      const x = it.read(row)
      const text = x === null || x === undefined ? '' : String(x).trim()
      if (text === '') continue
      out += (out === '' ? '' : it.sep) + text
    }
    return out === '' ? undefined : lead + out + tail
  }
}
