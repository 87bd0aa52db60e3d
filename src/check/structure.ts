// The structural half of `ponte check`, also run by the server before it listens: every
// table and column the compiled mapping names exists in the live database, and every converter
// fits its column's type. It reads the compiler's record of references (compile/references.ts),
// so a construct the compiler learns is checked by construction. Works from the mapping and
// the database catalog alone (no data read).
import type { WriteValue } from '../mapping/schema.js'
import type { Static } from 'typebox'
import type { MappingModel, Value } from '../mapping/model.js'
import { dateTimeFamily, type LiveCatalog, type LiveColumn } from '../db/columns.js'
import { probes, type CompiledMapping, type Reference } from '../mapping/compile/index.js'
import { Findings } from './findings.js'

type WriteValueDoc = Static<typeof WriteValue>

/** Formats that read numbers, text, or the database's own date types. */
const NUMERIC_FORMATS = new Set(['hhmm', 'minutes', 'int'])
const TEXT_FORMATS = new Set(['text', 'dmy', 'ymd'])
const DATE_FORMATS = new Set(['date', 'datetime', 'time'])

export function checkStructure (compiled: Pick<CompiledMapping, 'model' | 'references'>, catalog: LiveCatalog, out: Findings = new Findings(compiled.model)): Findings {
  const model = compiled.model
  const refs = compiled.references.list.map((r) => ({ ...r, path: canonical(model.doc, r.path) }))

  // Tables: each missing one said at every place it is named.
  for (const r of refs) {
    if (catalog.table(r.table)) continue
    out.missing.add(r.table.toLowerCase()).add(r.table.split('.').pop()?.toLowerCase() ?? '')
    if (r.column === undefined) out.problem(r.path, `table \`${r.table}\` does not exist in the database${suggest(r.table, catalog.tables.map((t) => t.name))}`)
  }

  // Columns: a missing one said at each place naming it, the most precise place of a line of them.
  const missing = new Map<string, { table: string, column: string, paths: string[] }>()
  for (const r of refs) {
    const t = catalog.table(r.table)
    if (!t || r.column === undefined) continue
    const live = t.columns.get(r.column.toLowerCase())
    if (!live) {
      const key = `${r.table.toLowerCase()}|${r.column.toLowerCase()}`
      const m = missing.get(key) ?? { table: r.table, column: r.column, paths: [] }
      m.paths.push(r.path)
      missing.set(key, m)
      continue
    }
    if (r.value) converterFit(r.value, live, out)
    if (r.condition) literalFit(r, live, out)
    if (r.written) {
      const fmt = (r.written as { format?: string }).format
      if (fmt) formatFit(fmt, live, r.column, r.path, out)
      generatedFit(r.written, live, r.path, out)
    }
    if (r.probe && r.value) probedAsText(model, r.probe, r.value, live, out)
  }
  for (const m of missing.values()) {
    const t = catalog.table(m.table)
    out.missing.add(m.column.toLowerCase())
    const said = ` does not exist in table \`${m.table}\`${suggest(m.column, [...t?.columns.values() ?? []].map((c) => c.name))}`
    for (const path of m.paths) {
      if (m.paths.some((p) => p.startsWith(`${path}/`))) continue
      out.problem(path, `column \`${m.column}\`${said}`)
    }
  }

  rowsNamed(model, out)
  return out
}

/** Literals a condition compares a column of numbers with: never matched. */
function literalFit (r: Reference, live: LiveColumn, out: Findings): void {
  const leaf = r.condition
  if (!leaf || live.kind !== 'number') return
  const literals = [leaf.eq, leaf.ne, ...(leaf.in ?? []), ...(leaf.notIn ?? [])].filter((x) => typeof x === 'string')
  const bad = literals.find((x) => !isNumeric(x))
  if (bad !== undefined) out.problem(r.path, `compares \`${leaf.column}\` with '${String(bad)}', but the column holds numbers (${live.declared}): it never matches`)
}

/**
 * A probe compares the stored column with spellings as text (compile/client.ts probes): a
 * column of numbers read as text would fail on PostgreSQL and SQL Server, and match wrong rows
 * on SQLite. Its declared type makes it a number the search compares as one, or scans.
 */
function probedAsText (model: MappingModel, kind: 'phone' | 'cpf', v: Value, live: LiveColumn, out: Findings): void {
  if (!model.search.includes(kind) || !probes(model, kind, v)) return
  if (live.kind === 'number' && v.type === undefined) {
    out.problem(v.path, `column \`${live.name}\` holds numbers (${live.declared}), but a ${kind === 'cpf' ? 'CPF' : 'phone'} search looks it up as text: declare its type (\`type: bigint\`) so the search compares it as a number${kind === 'phone' ? ' (by scanning every value)' : ''}`)
  }
}

/**
 * The rows a write names by join (before/after, the slot) must be joins of the resource: the
 * compiler refuses such a write, and this says so in the words of the mapping.
 */
function rowsNamed (model: MappingModel, out: Findings): void {
  for (const t of [model.client, model.appointment]) {
    const w = t.write
    if (!w) continue
    const base = `${t.path}/write`
    const name = t.path.split('/').pop() ?? ''
    const phones = 'phones' in t ? t.phones : []
    const extra = [...(w.before ?? []).map((r, i) => ({ r, path: `${base}/before/${i}` })), ...(w.after ?? []).map((r, i) => ({ r, path: `${base}/after/${i}` }))]
    for (const { r, path } of extra) {
      if (r.join !== undefined && !(r.join in t.joins)) out.problem(`${path}/join`, `no join called \`${r.join}\` under ${name} joins: the row to write is one of them`)
      if (r.join === undefined && phones[r.phones ?? 0]?.collect === undefined) out.problem(`${path}/phones`, `phones entry ${r.phones ?? 0} does not collect from a child table (\`collect:\`)`)
    }
    if (w.slot && !(w.slot.join in t.joins)) out.problem(`${base}/slot/join`, `no join called \`${w.slot.join}\` under ${name} joins: the slot is one of them`)
    if (w.slot?.services && t === model.appointment && !model.appointment.refs.service) {
      out.problem(`${base}/slot/services`, 'says which services each block accepts, but the appointment has no `refs.service` to compare them with: map the column holding its service under `refs.service`, or remove `services`')
    }
  }
}

/**
 * The place as the mapping has it: an item index where the mapping wrote one item instead of
 * a list (`where: {…}`, `key: ID`) is not part of it.
 */
export function canonical (doc: unknown, path: string): string {
  let node: unknown = doc
  const out: string[] = []
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^\d+$/.test(key) && !Array.isArray(node) && !(node !== null && typeof node === 'object' && key in node)) continue
    out.push(raw)
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
  }
  return `/${out.join('/')}`
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
  if ('phoneLine' in wv) {
    // Each code of a phone's line goes in as it is written: a code the column cannot hold fails the insert.
    for (const [line, code] of Object.entries(wv.phoneLine)) {
      if (live.kind === 'number' && typeof code === 'string' && !/^\s*-?\d+\s*$/.test(code)) out.problem(`${path}/phoneLine/${line}`, `code ${JSON.stringify(code)} is text, but column \`${live.name}\` holds numbers (${live.declared})`)
      else if (live.kind === 'text' && live.length !== undefined && String(code).length > live.length) out.problem(`${path}/phoneLine/${line}`, `code ${JSON.stringify(code)} has ${String(code).length} characters, but column \`${live.name}\` holds at most ${live.length} (${live.declared})`)
    }
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
      (live.kind === 'text' ? ': use `format: text` for \'HH:MM\' or \'YYYY-MM-DD\', `format: ymd` for \'YYYYMMDD\'' : `: use \`format: ${dateTimeFamily(live.declared) ?? 'datetime'}\``))
  } else if ((TEXT_FORMATS.has(format) || DATE_FORMATS.has(format)) && live.kind === 'number') {
    out.problem(where, `\`format: ${format}\` reads ${TEXT_FORMATS.has(format) ? 'text' : 'a date/time'}, but column \`${column}\` holds numbers (${live.declared}): use \`format: int\` (20260315), \`hhmm\` (1330) or \`minutes\``)
  }
}

function isNumeric (x: string): boolean {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(x)
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
