// The structural half of `ponte check`, also run by the server before it listens: every
// table and column the mapping names exists in the live database, and every converter fits
// its column's type. Every construct counts: joins (and their `first` key and order), collected
// child rows, minutes between columns, rows written before/after a resource's, the slot join,
// the status history and generated identifiers. Works from the mapping model and the database
// catalog alone (no data read).
import type { ConditionDoc, JoinDoc, ValueDoc, WriteValue } from '../mapping/schema.js'
import type { Static } from 'typebox'
import type { ClientModel, MappingModel, TableModel, Value } from '../mapping/model.js'
import { asValue, leaves, partsOf, whereList } from '../mapping/model.js'
import { dateTimeFamily, type LiveCatalog, type LiveColumn, type LiveTable } from '../db/columns.js'
import { probes } from '../mapping/compile/index.js'
import { Findings } from './findings.js'

interface Place { table: string, joins: Record<string, JoinDoc>, path: string }
type WriteValueDoc = Static<typeof WriteValue>

/** Formats that read numbers, text, or the database's own date types. */
const NUMERIC_FORMATS = new Set(['hhmm', 'minutes', 'int'])
const TEXT_FORMATS = new Set(['text', 'dmy'])
const DATE_FORMATS = new Set(['date', 'datetime', 'time'])

export function checkStructure (model: MappingModel, catalog: LiveCatalog, out: Findings = new Findings(model)): Findings {
  const missingTables = new Set<string>()

  const table = (name: string, path: string): LiveTable | undefined => {
    const found = catalog.table(name)
    if (!found && !missingTables.has(`${name}|${path}`)) {
      missingTables.add(`${name}|${path}`)
      out.missing.add(name.toLowerCase()).add(name.split('.').pop()?.toLowerCase() ?? '')
      out.problem(path, `table \`${name}\` does not exist in the database${suggest(name, catalog.tables.map((t) => t.name))}`)
    }
    return found
  }

  /** The live column behind `COL` or `join.COL`, reporting it when missing; undefined when unknown. */
  const column = (place: Place, name: string, path: string): LiveColumn | undefined => {
    const dot = name.indexOf('.')
    const join = dot < 0 ? undefined : place.joins[name.slice(0, dot)]
    const tableName = join ? join.table : place.table
    const col = dot < 0 ? name : name.slice(dot + 1)
    const t = catalog.table(tableName)
    if (!t) return undefined // the missing table is reported once, where it is named
    const found = t.columns.get(col.toLowerCase())
    if (!found) {
      out.missing.add(col.toLowerCase())
      out.problem(path, `column \`${col}\` does not exist in table \`${tableName}\`${suggest(col, [...t.columns.values()].map((c) => c.name))}`)
    }
    return found
  }

  const condition = (place: Place, c: ConditionDoc, path: string): void => {
    const many = 'all' in c ? 'all' : 'any' in c ? 'any' : undefined
    leaves(c).forEach((leaf, i) => {
      const at = many ? `${path}/${many}/${i}` : path
      const live = column(place, leaf.column, `${at}/column`)
      if (!live || live.kind !== 'number') return
      const literals = [leaf.eq, leaf.ne, ...(leaf.in ?? []), ...(leaf.notIn ?? [])].filter((x) => typeof x === 'string')
      const bad = literals.find((x) => !isNumeric(x))
      if (bad !== undefined) out.problem(`${at}/column`, `compares \`${leaf.column}\` with '${String(bad)}', but the column holds numbers (${live.declared}): it never matches`)
    })
  }

  const where = (place: Place, w: ConditionDoc[], path: string, single: boolean): void => {
    w.forEach((c, i) => condition(place, c, single ? path : `${path}/${i}`))
  }

  const value = (place: Place, v: Value): void => {
    const at = (sub: string) => typeof v === 'object' && v.column !== undefined && sub === 'column' ? `${v.path}/column` : v.path
    if (v.column !== undefined) {
      const live = column(place, v.column, at('column'))
      if (live) converterFit(v, live, out)
    }
    if (v.template !== undefined) {
      for (const m of v.template.matchAll(/\{([^{}]+)\}/g)) column(place, m[1].trim(), `${v.path}/template`)
    }
    v.rules?.forEach((r, i) => {
      if (r.column !== undefined) column(place, r.column, `${v.path}/rules/${i}/column`)
      if (r.when) condition(place, r.when, `${v.path}/rules/${i}/when`)
    })
    // Values made of values (coalesce items, composed rule outcomes, the ends of `minutes`):
    // each checked as a value of its own, at its own path.
    for (const part of partsOf(v)) value(place, part)
    // Values collected from a child table's rows.
    const more = v as Value & { collect?: { table: string, on: Record<string, string>, column: string, where?: ConditionDoc | ConditionDoc[], by?: string[] } }
    const collect = more.collect
    if (collect && table(collect.table, `${v.path}/collect/table`)) {
      const child: Place = { table: collect.table, joins: {}, path: `${v.path}/collect` }
      for (const [local, remote] of Object.entries(collect.on)) {
        column(place, local, `${v.path}/collect/on/${escapePointer(local)}`)
        column(child, remote, `${v.path}/collect/on/${escapePointer(local)}`)
      }
      column(child, collect.column, `${v.path}/collect/column`)
      for (const b of collect.by ?? []) column(child, b, `${v.path}/collect/by`)
      if (collect.where) where(child, whereList(collect.where), `${v.path}/collect/where`, !Array.isArray(collect.where))
    }
  }

  const docValue = (place: Place, v: ValueDoc | undefined, path: string): void => {
    if (v !== undefined) value(place, asValue(v, path).value)
  }

  /** Each join's table, its `on` columns on both sides, its filter and, for `first`, its key and order. */
  const joinsOf = (root: Place, joins: Record<string, JoinDoc>, path: string): void => {
    for (const [alias, j] of Object.entries(joins)) {
      const jPath = `${path}/joins/${alias}`
      if (!table(j.table, `${jPath}/table`)) continue
      const parent: Place = j.from ? { table: joins[j.from]?.table ?? '', joins: {}, path } : { ...root, joins: {} }
      const own: Place = { table: j.table, joins: {}, path: jPath }
      for (const [local, remote] of Object.entries(j.on)) {
        column(parent, local, `${jPath}/on/${escapePointer(local)}`)
        column(own, remote, `${jPath}/on/${escapePointer(local)}`)
      }
      if (j.where) where(own, whereList(j.where), `${jPath}/where`, !Array.isArray(j.where))
      if (j.first) {
        column(own, j.first.key, `${jPath}/first/key`)
        j.first.by?.forEach((b, i) => column(own, typeof b === 'string' ? b : b.column, `${jPath}/first/by/${i}`))
      }
    }
  }

  /** A table with its key, base filter and joins; returns false when the table itself is missing. */
  const tablePlace = (t: TableModel): boolean => {
    if (!table(t.table, `${t.path}/table`)) return false
    const place: Place = t
    joinsOf(place, t.joins, t.path)
    const keyDoc = (model.doc.resources as Record<string, { key?: unknown }>)[t.path.split('/').pop() ?? '']?.key
    t.key.parts.forEach((k, i) => column(place, k.column, Array.isArray(keyDoc) ? `${t.path}/key/${i}` : `${t.path}/key`))
    where(place, t.where, `${t.path}/where`, !Array.isArray(docAt(model.doc, `${t.path}/where`)))
    return true
  }

  // Resources.
  const a = model.appointment
  if (tablePlace(a)) {
    for (const v of [a.start.datetime, a.start.date, a.start.hour, a.end?.datetime, a.end?.hour, a.end?.duration, a.state, a.classification, ...Object.values(a.refs)]) {
      if (v) value(a, v)
    }
    const slot = model.doc.resources.appointment.slotHolding
    where(a, a.slotHolding, `${a.path}/slotHolding`, !Array.isArray(slot))
    writes(a, 'appointment')
  }
  const c = model.client
  if (tablePlace(c)) {
    for (const v of [...Object.values(c.fields), ...c.phones]) value(c, v)
    // A probe compares the stored column with spellings as text (compile/client.ts probes): a
    // column of numbers read as text would fail on PostgreSQL and SQL Server, and match wrong
    // rows on SQLite. Its declared type makes it a number the search compares as one, or scans.
    const probed = [...c.phones.map((v) => ['phone', v] as const), ...(c.fields.cpf ? [['cpf', c.fields.cpf] as const] : [])]
    for (const [kind, v] of probed) {
      if (v.column === undefined || !model.search.includes(kind) || !probes(model, kind, v)) continue
      const live = column(c, v.column, `${v.path}/column`)
      if (live?.kind === 'number' && v.type === undefined) {
        out.problem(v.path, `column \`${live.name}\` holds numbers (${live.declared}), but a ${kind === 'cpf' ? 'CPF' : 'phone'} search looks it up as text: declare its type (\`type: bigint\`) so the search compares it as a number${kind === 'phone' ? ' (by scanning every value)' : ''}`)
      }
    }
    writes(c, 'client')
  }
  for (const l of Object.values(model.lookups)) {
    if (!l || !tablePlace(l)) continue
    for (const v of [...Object.values(l.fields), l.enabled]) if (v) value(l, v)
  }

  // Relations held in a table of their own.
  for (const r of model.relations) {
    if (r.kind !== 'table') continue
    if (!tablePlace({ table: r.table, joins: r.joins, where: r.where, path: r.path, key: { column: '', type: 'int', parts: [], separator: '-' } })) continue
    for (const v of r.columns) value(r, v)
  }

  // Working hours and blocked time.
  const av = model.doc.availability
  if (av) {
    const sources: { doc: Record<string, unknown>, path: string }[] = []
    if (av.weekly) sources.push({ doc: av.weekly, path: '/availability/weekly' })
    if (av.dated) sources.push({ doc: av.dated, path: '/availability/dated' })
    if (Array.isArray(av.blocks)) av.blocks.forEach((b, i) => sources.push({ doc: b, path: `/availability/blocks/${i}` }))
    else if (av.blocks) sources.push({ doc: av.blocks, path: '/availability/blocks' })
    for (const s of sources) {
      const d = s.doc as { table: string, joins?: Record<string, JoinDoc>, where?: ConditionDoc | ConditionDoc[] }
      const place: Place = { table: d.table, joins: d.joins ?? {}, path: s.path }
      if (!table(d.table, `${s.path}/table`)) continue
      joinsOf(place, d.joins ?? {}, s.path)
      if (d.where) where(place, whereList(d.where), `${s.path}/where`, !Array.isArray(d.where))
      for (const [k, v] of Object.entries(s.doc)) {
        if (['table', 'joins', 'where', 'weekdayBase'].includes(k)) continue
        docValue(place, v as ValueDoc, `${s.path}/${k}`)
      }
    }
  }
  return out

  function writes (t: TableModel & { write?: MappingModel['client']['write'] }, _name: string): void {
    const w = t.write
    if (!w) return
    const base = `${t.path}/write`
    const setColumns = (entries: Record<string, unknown> | undefined, path: string, place: Place = t) => {
      for (const [col, wv] of Object.entries(entries ?? {})) {
        const at = `${path}/${escapePointer(col)}`
        const live = column(place, col, at)
        const fmt = (wv as { format?: string }).format
        if (live && fmt) formatFit(fmt, live, col, at, out)
        if (live) generatedFit(wv as WriteValueDoc, live, at, out)
      }
    }
    const keyTable = (k: NonNullable<typeof w.key>, path: string) => {
      if (k.generate !== 'keyTable') return
      const kt = { table: k.table, joins: {}, path }
      if (table(k.table, `${path}/table`)) {
        column(kt, k.nameColumn, `${path}/nameColumn`)
        column(kt, k.valueColumn, `${path}/valueColumn`)
      }
    }
    setColumns(w.set, `${base}/set`)
    for (const [state, cols] of Object.entries(w.states ?? {})) setColumns(cols, `${base}/states/${state}`)
    setColumns(w.reschedule, `${base}/reschedule`)
    if (w.key) keyTable(w.key, `${base}/key`)

    // Rows written with the resource's: a join's table, or the child table a phone is collected from.
    const phones = (t as Partial<ClientModel>).phones ?? []
    const extra = [...(w.before ?? []).map((r, i) => ({ r, path: `${base}/before/${i}` })), ...(w.after ?? []).map((r, i) => ({ r, path: `${base}/after/${i}` }))]
    for (const { r, path } of extra) {
      const target = r.join !== undefined ? t.joins[r.join]?.table : phones[r.phones ?? 0]?.collect?.table
      if (target === undefined) {
        out.problem(r.join !== undefined ? `${path}/join` : `${path}/phones`, r.join !== undefined
          ? `no join called \`${r.join}\` under ${t.path.split('/').pop() ?? ''} joins: the row to write is one of them`
          : `phones entry ${r.phones ?? 0} does not collect from a child table (\`collect:\`)`)
        continue
      }
      if (!catalog.table(target)) continue // said where the table is named
      setColumns(r.set, `${path}/set`, { table: target, joins: {}, path })
      if (r.key) keyTable(r.key, `${path}/key`)
    }

    if (w.slot && !(w.slot.join in t.joins)) {
      out.problem(`${base}/slot/join`, `no join called \`${w.slot.join}\` under ${t.path.split('/').pop() ?? ''} joins: the slot is one of them`)
    }
    if (w.slot && w.slot.join in t.joins) slotColumns(t, w.slot, `${base}/slot`)

    /** The slot's capacity column and the table saying which services each block accepts. */
    function slotColumns (place: Place, slot: NonNullable<NonNullable<MappingModel['appointment']['write']>['slot']>, sp: string): void {
      if (typeof slot.capacity === 'object') column(place, slot.capacity.column, `${sp}/capacity/column`)
      const s = slot.services
      if (!s) return
      if (t === model.appointment && !model.appointment.refs.service) {
        out.problem(`${sp}/services`, 'says which services each block accepts, but the appointment has no `refs.service` to compare them with: map the column holding its service under `refs.service`, or remove `services`')
      }
      if (s.table === undefined) { column(place, s.column, `${sp}/services/column`); return }
      if (!table(s.table, `${sp}/services/table`)) return
      const child: Place = { table: s.table, joins: {}, path: `${sp}/services` }
      for (const [local, remote] of Object.entries(s.on ?? {})) {
        column(place, local, `${sp}/services/on/${escapePointer(local)}`)
        column(child, remote, `${sp}/services/on/${escapePointer(local)}`)
      }
      column(child, s.column, `${sp}/services/column`)
      if (s.where) where(child, whereList(s.where), `${sp}/services/where`, !Array.isArray(s.where))
    }

    const h = w.history
    if (h && table(h.table, `${base}/history/table`)) {
      const hp = `${base}/history`
      const place: Place = { table: h.table, joins: {}, path: hp }
      column(place, h.key, `${hp}/key`)
      where(place, whereList(h.current), `${hp}/current`, !Array.isArray(h.current))
      setColumns(h.open, `${hp}/open`, place)
      setColumns(h.close, `${hp}/close`, place)
    }
  }
}

/** Converters that cannot work on the column's declared type. */
function converterFit (v: Value, live: LiveColumn, out: Findings): void {
  if (v.format) formatFit(v.format, live, v.column ?? '', v.path, out)
  if (live.kind === 'number') {
    const t = v.trueValues?.find((x) => typeof x === 'string' && !isNumeric(x))
    if (t !== undefined) out.problem(`${v.path}/trueValues`, `\`trueValues: ['${String(t)}']\` can never match: column \`${live.name}\` holds numbers (${live.declared})`)
    const code = Object.keys(v.map ?? {}).find((k) => !isNumeric(k))
    if (code !== undefined) out.problem(`${v.path}/map`, `code '${code}' can never match: column \`${live.name}\` holds numbers (${live.declared})`)
  }
}

/** Generated identifiers that cannot fit their column: a UUID in a number or a short column, a checked identifier too long. */
function generatedFit (wv: WriteValueDoc, live: LiveColumn, path: string, out: Findings): void {
  if ('uuid' in wv) {
    if (live.kind === 'number') out.problem(`${path}/uuid`, `a UUID is text, but column \`${live.name}\` holds numbers (${live.declared})`)
    else if (live.length !== undefined && live.length < 36) out.problem(`${path}/uuid`, `a UUID has 36 characters, but column \`${live.name}\` holds at most ${live.length} (${live.declared})`)
  }
  if ('identifier' in wv) {
    const id = wv.identifier
    const letters = /[^0-9]/.test(id.characters ?? '0123456789') || (id.prefix ?? '') !== ''
    if (live.kind === 'number' && letters) {
      out.problem(`${path}/identifier`, `the identifier holds letters (${id.prefix ? 'a prefix' : 'its check characters'}), but column \`${live.name}\` holds numbers (${live.declared})`)
    } else if (id.digits !== undefined && live.length !== undefined && (id.prefix ?? '').length + id.digits + 1 > live.length) {
      out.problem(`${path}/identifier`, `the identifier has ${(id.prefix ?? '').length + id.digits + 1} characters, but column \`${live.name}\` holds at most ${live.length} (${live.declared})`)
    }
  }
}

function formatFit (format: string, live: LiveColumn, column: string, path: string, out: Findings): void {
  const where = `${path.endsWith('/format') ? path : `${path}/format`}`
  if (NUMERIC_FORMATS.has(format) && (live.kind === 'text' || live.kind === 'date')) {
    out.problem(where, `\`format: ${format}\` reads a number, but column \`${column}\` is ${live.kind === 'text' ? 'text' : 'a date/time'} (${live.declared})` +
      (live.kind === 'text' ? ': use `format: text` for \'HH:MM\' or \'YYYY-MM-DD\'' : `: use \`format: ${dateTimeFamily(live.declared) ?? 'datetime'}\``))
  } else if ((TEXT_FORMATS.has(format) || DATE_FORMATS.has(format)) && live.kind === 'number') {
    out.problem(where, `\`format: ${format}\` reads ${TEXT_FORMATS.has(format) ? 'text' : 'a date/time'}, but column \`${column}\` holds numbers (${live.declared}): use \`format: int\` (20260315), \`hhmm\` (1330) or \`minutes\``)
  }
}

function docAt (doc: unknown, path: string): unknown {
  return path.split('/').slice(1).reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], doc)
}

function isNumeric (x: string): boolean {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(x)
}

function escapePointer (s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** ` (did you mean \`starts_at\`?)` for a near miss; names from the database are not patient data. */
export function suggest (name: string, candidates: string[]): string {
  const lower = name.toLowerCase()
  let best: string | undefined
  let bestD = Infinity
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase())
    if (d < bestD) { bestD = d; best = c }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 4)) ? ` (did you mean \`${best}\`?)` : ''
}

function distance (a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = cur
  }
  return prev[b.length]
}
