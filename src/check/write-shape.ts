// Whether the writes a mapping describes can work at all: a client with no column the
// interface can write, or a new row that leaves a NOT NULL column empty, would fail on the
// first POST — said here, with the place to fix, instead.
import type { MappingModel, TableModel, Value } from '../mapping/model.js'
import type { LiveCatalog } from '../db/columns.js'
import { isUnsupported, templateColumns, type CompiledWrites, type InsertPlan, type Supported } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'
import { nameLayout, splitInto } from '../mapping/compile/index.js'

export function checkWrites (model: MappingModel, writes: CompiledWrites, catalog: LiveCatalog | undefined, out: Findings): void {
  const client = model.client
  const c = attempt(out, client, writes.client)
  if (c) {
    // A name kept in a row written with the client's (`after: [{ join: name }]`) is writable too.
    if (!c.writers.name && !c.rowWriters.name) {
      out.problem(`${client.path}/fields/name`, 'new clients cannot be written: their name comes from an expression, rules or a joined table, so POST /clients has no column to store it in (map `name` to a column or a `{first} {last}` template of the client table)')
    } else {
      const insert = attempt(out, client, c.insert)
      if (insert) required(insert.plan, client, catalog, out)
    }
  }
  if (c && (c.writers.name || c.rowWriters.name)) {
    secondaryFamily(client.fields.name, out)
    familyPrefix(client.fields.name, out)
  }
  if (c) {
    // Read but not writable, and not declared ignored: a request sending it is refused (501).
    for (const f of ['email', 'cpf', 'birthday'] as const) {
      const v = client.fields[f]
      if (v && !c.writers[f] && !c.rowWriters[f] && !c.ignored.has(f)) out.warning(v.path, `${f} is read from something Ponte cannot write: POST and PATCH /clients sending it are refused (501); write it to a column or a written row, or list it under write.ignore`)
    }
    // The phone is required on POST /clients: read but not writable, every registration is refused.
    const phone = client.phones[0]
    if (phone && !c.writers.phone && !c.rowWriters.phone && !c.ignored.has('phone')) out.problem(phone.path, 'phones are read from something Ponte cannot write, and POST /clients requires one: every registration would be refused (501); map the first phone to a column of the client table or a written row, or list phone under write.ignore')
    for (const f of c.ignored) {
      if (c.writers[f as keyof typeof c.writers] || c.rowWriters[f as keyof typeof c.rowWriters]) out.warning(`${client.path}/write/ignore`, `${f} is listed under write.ignore but the mapping can write it: it is stored, not ignored`)
    }
  }
  const a = attempt(out, model.appointment, writes.appointment)
  if (a) {
    for (const f of a.ignored) {
      if (a.refs[f as keyof typeof a.refs] || a.joinedRefs[f as keyof typeof a.joinedRefs]) out.warning(`${model.appointment.path}/write/ignore`, `${f} is listed under write.ignore but the mapping can write it: it is stored, not ignored`)
    }
    for (const [name, reason] of Object.entries(a.readOnlyRefs)) {
      const v = model.appointment.refs[name as keyof typeof model.appointment.refs]
      if (v && !a.ignored.has(name)) out.warning(v.path, `bookings sending ${name} are refused (501): ${reason}`)
    }
    const insert = attempt(out, model.appointment, a.insert)
    if (insert) required(insert.plan, model.appointment, catalog, out)
    sharedStateCodes(model, out)
  }
}

/**
 * A state several stored codes read as is written as one of them: the map's first (what
 * write-columns.ts encodes), unless `write.states` says otherwise. Said, so the clinic sees which.
 */
function sharedStateCodes (model: MappingModel, out: Findings): void {
  const { state, write } = model.appointment
  if (!state.map || state.column === undefined) return
  const codes = new Map<string, string[]>()
  for (const [code, name] of Object.entries(state.map)) codes.set(String(name), [...codes.get(String(name)) ?? [], code])
  for (const [name, list] of codes) {
    if (list.length < 2 || write?.states?.[name] !== undefined) continue
    out.warning(`${state.path}/map`, `${name} is read from ${list.length} codes (${list.join(', ')}): a booking or move to ${name} writes ${list[0]}, the first of them; to write another, give write.states.${name}`)
  }
}

function attempt<T> (out: Findings, t: TableModel, plan: Supported<T>): T | undefined {
  if (!isUnsupported(plan)) return plan
  const { path, reason } = plan.unsupported
  if (out.covers(path)) return undefined // the catalog pass already said why
  // A write the mapping declares but gets wrong (write.refs, a row written with the record) is a mistake to fix, not a limit.
  if (/\/write\/(refs|before|after)\//.test(path)) out.problem(path, `writes not possible: ${reason}`)
  else out.warning(path || `${t.path}/write`, `writes not possible (${reason}); reads are unaffected`)
  return undefined
}

/** NOT NULL columns without a default that an insert leaves out. */
function required (plan: InsertPlan, t: TableModel, catalog: LiveCatalog | undefined, out: Findings): void {
  const name = t.path.split('/').pop() ?? ''
  const live = catalog?.table(t.table)
  if (out.covers(`${t.path}/write`)) return // a misspelt `set:` column already explains what is left empty
  if (!live) { out.ok(`${t.path}/write`, 'mapped'); return }
  const written = new Set([...plan.columns.map((c) => c.column.toLowerCase()), plan.key.keyColumn.toLowerCase()])
  const missing = [...live.columns.values()].filter((col) => col.notNull && !col.hasDefault && !col.generated && !written.has(col.name.toLowerCase()))
  for (const col of missing) {
    out.problem(`${t.path}/write`, `a new ${name} row leaves column \`${col.name}\` empty, but the database requires a value (NOT NULL, no default): give it under \`write.set\``)
  }
  if (missing.length === 0) out.ok(`${t.path}/write`, 'mapped')
}

// A name template ending in a secondary column (OpenMRS's `family_name2`) without `split.family`:
// a two-word name puts its family name there and leaves the real family column empty, yet
// reads back as sent, so no probe can tell.
function secondaryFamily (name: Value | undefined, out: Findings): void {
  if (name?.template === undefined || (typeof name.split === 'object' && name.split.family !== undefined)) return
  const columns = templateColumns(name.template)
  const bare = columns.map((c) => c.slice(c.indexOf('.') + 1).toLowerCase())
  const last = bare[bare.length - 1]
  const primary = bare.findIndex((b) => b !== last && (`${b}2` === last || `${b}_2` === last))
  if (columns.length < 3 || primary < 0) return
  const cut = splitInto('Carla Dias', nameLayout(columns, name.split), name.split)
  const shown = columns.map((c) => `\`${c}\` '${cut[c]}'`).join(', ')
  out.warning(`${name.path}/template`, `a two-word name is written ${shown}: the family name lands in the secondary \`${columns[columns.length - 1]}\` and \`${columns[primary]}\` is left empty, though it reads back as sent; give \`split: { family: ${columns[primary]} }\``)
}

// A family-prefix column (OpenMRS's `family_name_prefix`) just before the family's without
// `split.familyPrefix`: it takes a given word, yet the name reads back as sent.
function familyPrefix (name: Value | undefined, out: Findings): void {
  if (name?.template === undefined || (typeof name.split === 'object' && name.split.familyPrefix !== undefined)) return
  const columns = templateColumns(name.template)
  const layout = nameLayout(columns, name.split)
  const before = layout.family === undefined ? -1 : columns.indexOf(layout.family) - 1
  if (before < 1 || !/prefix/i.test(columns[before].slice(columns[before].indexOf('.') + 1))) return
  const cut = splitInto('Maria das Graças de Souza', layout, name.split)
  const shown = columns.map((c) => `\`${c}\` '${cut[c]}'`).join(', ')
  out.warning(`${name.path}/template`, `\`${columns[before]}\` takes given names: \`Maria das Graças de Souza\` is written ${shown}, though it reads back as sent; give \`split: { familyPrefix: ${columns[before]} }\` for the family's particles`)
}
