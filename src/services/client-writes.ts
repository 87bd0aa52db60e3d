// Registering and correcting clients. Input is checked whole before anything is written;
// the answer is the client as the database now holds it.
import type { Database, Querier } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import { compileClientWrites, type ClientField, type CompiledClientWrites } from '../mapping/compile/client-write.js'
import type { InsertPlan } from '../mapping/compile/write.js'
import type { ClientT } from '../schemas/resources.js'
import { parsePhoneInput } from '../normalise/phone.js'
import { isValidCpf } from '../normalise/cpf.js'
import { nowIn, todayIn } from '../normalise/datetime.js'
import { readApiDate } from '../normalise/date-window.js'
import { InvalidInputError, MissingValueError, NotWritableError, type FieldIssue } from '../errors.js'
import type { Catalog } from './catalog.js'
import type { Clients } from './clients.js'
import { keyArgs } from '../mapping/compile/key.js'
import { writable } from './writable.js'
import { LiveSchema } from '../db/columns.js'
import { fitField } from './column-fit.js'
import { insertWithRows } from './extra-rows.js'

export interface NewClient {
  name: string
  phone: string
  email?: string
  birthday?: string
  cpf?: string
  healthInsurance?: string
  location?: string
}

export type ClientPatch = Partial<Pick<NewClient, 'name' | 'email' | 'cpf' | 'birthday'>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export class ClientWrites {
  private compiledPlans?: CompiledClientWrites

  private readonly live: LiveSchema

  constructor (private readonly compiled: CompiledMapping, private readonly db: Database, private readonly catalog: Catalog, private readonly clients: Clients) {
    this.live = new LiveSchema(db)
  }

  private get plans (): CompiledClientWrites {
    this.compiledPlans ??= writable(() => compileClientWrites(this.compiled.model, this.compiled.dialect), 'clients')
    return this.compiledPlans
  }

  async create (input: NewClient): Promise<ClientT> {
    const values = await this.validate(input, true)
    const now = nowIn(this.compiled.model.timezone)
    const args: Record<string, unknown> = {}
    for (const [column, value] of Object.entries(this.plans.constants(now))) args[`col:${column}`] = value
    for (const [field, writer] of Object.entries(this.plans.writers)) {
      if (!writer) continue
      for (const [column, value] of Object.entries(writer.encode(values[field as ClientField]))) args[`col:${column}`] = value
    }
    // Fields kept in the rows written with the client's (a name row, a phone attribute).
    const fields: Record<string, unknown> = {}
    for (const [field, writer] of Object.entries(this.plans.rowWriters)) Object.assign(fields, writer?.encode(values[field as ClientField]))
    const insert = writable(() => this.plans.insert(), 'clients')
    const rows = this.plans.rows
    const writers = { ...this.plans.rowWriters, ...this.plans.writers }
    const id = await requiring(writers, async () => await this.db.transaction(async (tx) =>
      rows ? await insertWithRows(tx, rows, insert, args, fields, now) : await insertRow(tx, insert, args)))
    return await this.clients.get(id)
  }

  async update (id: string, patch: ClientPatch): Promise<ClientT> {
    const fields = (Object.keys(patch) as ClientField[]).filter((f) => patch[f as keyof ClientPatch] !== undefined)
    const values = await this.validate(patch, false)
    const writable = fields.filter((f) => this.plans.writers[f])
    // Fields kept in joined rows (a name row, the person's birthdate): an UPDATE of each row.
    const inRows = fields.filter((f) => !this.plans.writers[f] && this.plans.rowWriters[f])
    const unwritable = fields.filter((f) => !this.plans.writers[f] && !this.plans.rowWriters[f])
    if (unwritable.length > 0) throw new NotWritableError(`This installation's mapping reads ${unwritable.join(' and ')} from something that cannot be written (an expression, a join or rules); nothing was changed.`)
    await this.clients.get(id) // 404 before anything else
    const key = keyArgs(this.compiled.model.client.key, id)
    if ((writable.length > 0 || inRows.length > 0) && key) {
      const args: Record<string, unknown> = { ...key }
      for (const f of [...writable, ...inRows]) {
        const writer = this.plans.writers[f] ?? this.plans.rowWriters[f]
        for (const [column, value] of Object.entries(writer?.encode(values[f]) ?? {})) args[`col:${column}`] = value
      }
      const statements = [
        ...writable.length > 0 ? [this.plans.update(writable)] : [],
        ...inRows.length > 0 ? writableOr501(() => this.plans.rowUpdates(inRows)) : []
      ]
      await this.db.transaction(async (tx) => { for (const s of statements) await tx.query(s, args) })
    }
    return await this.clients.get(id)
  }

  /** Every problem at once; returns the normalised values. */
  private async validate (input: Partial<NewClient>, creating: boolean): Promise<Partial<Record<ClientField, string>>> {
    const issues: FieldIssue[] = []
    const out: Partial<Record<ClientField, string>> = {}
    const { phone: phoneOptions, timezone } = this.compiled.model
    if (input.name !== undefined || creating) {
      const name = (input.name ?? '').trim().replace(/\s+/g, ' ')
      if (name === '') issues.push({ path: '/body/name', message: 'must not be blank' })
      else out.name = name
    }
    if (creating) {
      const phone = parsePhoneInput(input.phone ?? '', phoneOptions)
      if (!phone) issues.push({ path: '/body/phone', message: 'must be a telephone number (international format, e.g. +5511987654321)' })
      else out.phone = phone
    }
    if (input.email !== undefined) {
      const email = input.email.trim()
      if (!EMAIL.test(email)) issues.push({ path: '/body/email', message: 'must be an e-mail address' })
      else out.email = email
    }
    if (input.cpf !== undefined) {
      const cpf = input.cpf.replace(/[.\-\s]/g, '')
      if (!/^\d{11}$/.test(cpf) || !isValidCpf(cpf)) issues.push({ path: '/body/cpf', message: 'must be a valid CPF (11 digits with correct check digits)' })
      else out.cpf = cpf
    }
    if (input.birthday !== undefined) {
      // The same reading and window as every date of the interface.
      const b = readApiDate(input.birthday, timezone, '/body/birthday', issues)
      if (b !== undefined && b > todayIn(timezone)) issues.push({ path: '/body/birthday', message: 'must not be in the future' })
      else if (b !== undefined) out.birthday = b
    }
    // An id that names nothing is a mistake worth hearing about even where the mapping does not
    // store it ("may be ignored if not applicable" is about storing, not about checking).
    for (const ref of ['healthInsurance', 'location'] as const) {
      const id = input[ref]
      if (id === undefined || !this.compiled.model.lookups[ref]) continue
      const snap = await this.catalog.snapshot()
      if (!snap.record(ref, id)) issues.push({ path: `/body/${ref}`, message: `no ${ref} with id "${id}"` })
      else if (this.plans.writers[ref]) out[ref] = id
    }
    const stored = await this.asStored(out, issues)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues)
    return stored
  }

  /** The values as the clinic's columns will hold them (see column-fit.ts); what cannot fit is an issue. */
  private async asStored (values: Partial<Record<ClientField, string>>, issues: FieldIssue[]): Promise<Partial<Record<ClientField, string>>> {
    const live = await this.live.textColumns(this.compiled.model.client.table)
    const out: Partial<Record<ClientField, string>> = {}
    for (const [field, value] of Object.entries(values) as [ClientField, string][]) {
      const writer = this.plans.writers[field] ?? this.plans.rowWriters[field]
      const fit = writer ? fitField(writer, value, live) : { value }
      if ('problem' in fit) issues.push({ path: `/body/${field}`, message: fit.problem })
      else out[field] = fit.value as string
    }
    return out
  }
}

function writableOr501<T> (compile: () => T): T {
  return writable(compile, 'these client fields')
}

export function describe (issues: FieldIssue[]): string {
  return issues.map((i) => `${i.path.replace('/body/', '')} ${i.message}`).join('; ')
}

/** Key generation and the INSERT, inside the caller's transaction; returns the new id. */
export async function insertRow (tx: Querier, plan: InsertPlan, args: Record<string, unknown>): Promise<string> {
  let id: unknown
  for (const statement of plan.key.before) {
    const rows = await tx.query(statement)
    if (rows.length > 0) id = rows[0].id
  }
  if (plan.key.before.length > 0) {
    if (plan.key.increment) id = Number(id ?? 0) + 1
    if (id === undefined || id === null) throw new Error(`key generation (${plan.key.before.at(-1)?.name}) returned no value: is the key table row there?`)
    args[`col:${plan.key.keyColumn}`] = id
    // Columns holding the row's own key (a patient who is their own guarantor) bind it at once…
    for (const c of plan.selfKey?.columns ?? []) args[`col:${c}`] = id
  }
  const rows = await tx.query(plan.statement, args)
  if (plan.key.returning) id = rows[0]?.id
  if (id === undefined || id === null) throw new Error(`${plan.statement.name} returned no key`)
  // … or, for an identity key, get it right after the insert, in the same transaction.
  if (plan.selfKey?.update) {
    await tx.query(plan.selfKey.update, { id, ...Object.fromEntries(plan.selfKey.columns.map((c) => [`col:${c}`, id])) })
  }
  return String(id).trim()
}

/**
 * Runs a write; a NULL the database refuses becomes a 400 naming the request field that
 * writes that column (or, for a column no field writes, the installation's mapping).
 */
export async function requiring<T> (writers: Partial<Record<string, { columns: { column: string }[] } | undefined>>, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    if (!(err instanceof MissingValueError)) throw err
    const field = Object.entries(writers).find(([, w]) => w?.columns.some((c) => c.column.toLowerCase() === err.column?.toLowerCase()))?.[0]
    if (field) throw new InvalidInputError(`${field} is required by this installation.`, [{ path: `/body/${field}`, message: 'is required by this installation' }])
    throw new InvalidInputError('The clinic database requires a value the mapping does not provide; the installation\'s mapping needs a default for it under write.set.')
  }
}
