// Registering and correcting clients. Input is checked whole before anything is written;
// the answer is the client as the database now holds it.
import type { Arrival, Database, Querier } from '../db/database.js'
import { templateColumns, type ClientField, type ClientValues, type ClientWritePlans, type CompiledMapping } from '../mapping/compile/index.js'
import type { ClientT } from '../schemas/resources.js'
import { isPhoneMask, parsePhoneInput, phoneInputProblem, phoneMaskProblem, PHONES_JOINED } from '../normalise/phone.js'
import { isValidCpf } from '../normalise/cpf.js'
import { LAST_SENTINEL_DATE, nowIn, todayIn } from '../normalise/datetime.js'
import { readApiCalendarDate } from '../normalise/date-window.js'
import { InvalidInputError, NotFoundError, type FieldIssue } from '../errors.js'
import { answered, refuseMisstored, refuseShadowed, refuseUnstorable, requiring, type Shadowed, type Stored, type Writers } from './stored.js'
import { samePhone } from '../normalise/phone.js'
import { foldName, normaliseEmail, upperName } from '../normalise/text.js'
import type { Catalog } from './catalog.js'
import type { Clients } from './clients.js'
import { idsForClient } from './lookups.js'
import { writable } from './writable.js'
import { KnownCatalog } from '../db/known-catalog.js'
import { clientTextColumns, fitField } from './column-fit.js'
import { nameAsRead } from '../mapping/compile/index.js'

export interface NewClient {
  name: string
  phone: string
  /** Numbers besides `phone`, for the mapping's other phone columns (`write.phone`). */
  allPhones?: string[]
  email?: string
  birthday?: string
  cpf?: string
  healthInsurance?: string
  location?: string
}

export type ClientPatch = Partial<Pick<NewClient, 'name' | 'email' | 'cpf' | 'birthday'>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export class ClientWrites {
  /** `live`: the served mapping's catalogue (ponte.ts); its own read of the database's without one. */
  constructor (private readonly compiled: CompiledMapping, private readonly db: Database, private readonly catalog: Catalog, private readonly clients: Clients,
    private readonly live = new KnownCatalog(db)) {}

  private get writes (): ClientWritePlans {
    return writable(this.compiled.writes.client, 'clients')
  }

  /** Every field's writer, in its own row or a joined one (a field the own row cannot write is `undefined` there). */
  private get fieldWriters (): Writers {
    const { writers, rowWriters } = this.writes
    return Object.fromEntries(Object.keys({ ...writers, ...rowWriters }).map((f) => [f, writers[f as ClientField] ?? rowWriters[f as ClientField]]))
  }

  async create (input: NewClient, at: Arrival): Promise<Stored<ClientT>> {
    writable(this.compiled.writes.client, 'clients', input)
    const ignored = this.unstored(input)
    const stored = await this.validate(input, true, at)
    for (const f of ignored) delete stored[f as ClientField]
    const now = nowIn(this.compiled.model.timezone)
    const insert = writable(this.writes.insert, 'clients', input)
    const id = await requiring(this.fieldWriters, Object.keys(stored), async () => await this.db.transaction(async (tx) => {
      const id = await insert.run(tx, stored, now)
      await this.readBack(tx, id, stored, ignored, true)
      return id
    }, at))
    return answered(await this.clients.get(id, at), ignored, this.writes.ignored)
  }

  async update (id: string, patch: ClientPatch, at: Arrival): Promise<Stored<ClientT>> {
    writable(this.compiled.writes.client, 'clients', patch)
    const ignored = this.unstored(patch)
    const stored = await this.validate(patch, false, at)
    const fields = (Object.keys(stored) as ClientField[]).filter((f) => !ignored.includes(f))
    await this.clients.get(id, at) // 404 before anything else
    if (fields.length > 0) {
      const plan = writable(this.writes.patch(fields), 'these client fields', Object.fromEntries(fields.map((f) => [f, stored[f]])))
      const now = nowIn(this.compiled.model.timezone)
      // Claimed: two PATCHes adding the same missing child row (an e-mail row) would each find
      // none and insert one where the database runs them side by side (MariaDB's reads lock nothing).
      await requiring(this.fieldWriters, fields, async () => await this.db.transaction(async (tx) => {
        if (await plan.run(tx, id, stored, now)) await this.readBack(tx, id, stored, ignored, false)
      }, at, [`client record ${id}`]))
    }
    return answered(await this.clients.get(id, at), ignored, this.writes.ignored)
  }

  /**
   * The fields a request sends that will not be stored: those the mapping does not read (nor
   * write), and those it reads but declares ignored (write.ignore). One it reads but cannot
   * write is a 501 naming it, before anything is written.
   */
  private unstored (input: Partial<NewClient>): string[] {
    const { writers, rowWriters, ignored: declared } = this.writes
    const c = this.compiled.model.client
    const ignored: string[] = []
    const refused: FieldIssue[] = []
    for (const field of Object.keys(input) as ClientField[]) {
      // Numbers with no column to go to are refused by name (validate), never ignored.
      if (input[field as keyof NewClient] === undefined || writers[field] || rowWriters[field] || field === 'allPhones') continue
      const read = field === 'phone' ? c.phones.length > 0 : field === 'healthInsurance' || field === 'location' ? false : c.fields[field] !== undefined
      if (!read || declared.has(field)) ignored.push(field)
      else {
        const at = (field === 'phone' ? c.phones[0] : c.fields[field as keyof typeof c.fields])?.path
        refused.push({ path: `/body/${field}`, message: `this installation reads ${field} from something that cannot be written (an expression, rules, a join or a child row the mapping does not write; at ${at ?? c.path}), and its mapping does not list it under write.ignore` })
      }
    }
    refuseUnstorable(refused)
    return ignored
  }

  /**
   * Inside the write's transaction: every field sent reads back as sent (as the interface
   * normalises it, and folded as its column must), or everything rolls back.
   */
  private async readBack (tx: Querier, id: string, sent: ClientValues, ignored: string[], creating: boolean): Promise<void> {
    const fields = (Object.keys(sent) as ClientField[]).filter((f) => !ignored.includes(f))
    let client: ClientT
    try {
      client = await this.clients.get(id, undefined, tx)
    } catch (err) {
      if (err instanceof NotFoundError) refuseMisstored(fields, 'client (it is not found through the mapping\'s filters)')
      throw err
    }
    const name = this.compiled.model.client.fields.name
    const upper = name?.case === 'upper'
    // A name whose `split` writes a word twice or into a column the template does not read is
    // read back as the template shows what was written.
    const expected = (f: ClientField): string => f === 'name' && name?.template !== undefined && typeof name.split === 'object'
      ? nameAsRead(sent.name as string, templateColumns(name.template), name.split)
      : sent[f] as string
    const wrong = fields.filter((f) => f !== 'healthInsurance' && f !== 'location' && !readsAsSent(f, expected(f), client, upper))
    // A client's insurance and location are not fields of the Client resource: they read back
    // through the mapping's client relation, as GET /locations?client= reads it (the id sent among the client's).
    for (const ref of (['healthInsurance', 'location'] as const).filter((f) => fields.includes(f))) {
      const edge = this.compiled.edges.find((e) => e.forClient !== undefined && e.between.includes('client') && e.between.includes(ref))
      if (!edge || !(await idsForClient(tx, edge, id)).has(sent[ref] as string)) wrong.push(ref)
    }
    if (wrong.length === 0) return
    const shadowed = wrong.flatMap((f) => this.shadowing(f, sent[f] as string, client))
    if (shadowed.length === wrong.length) refuseShadowed(shadowed, creating)
    refuseMisstored(wrong, 'client')
  }

  /**
   * Where a field reads back otherwise because of the record: it is the first non-empty of
   * several columns and the one written is not first, while what is shown is not merely the
   * value sent in another case (that is the written column changed: a trigger).
   */
  private shadowing (field: ClientField, sent: string, client: ClientT): Shadowed[] {
    const v = this.compiled.model.client.fields[field]
    const shown = field === 'name' ? client.name : (client as unknown as Record<string, unknown>)[field]
    if (v?.coalesce === undefined || v.coalesce.length < 2 || typeof shown !== 'string' || foldName(shown) === foldName(sent)) return []
    const earlier = v.coalesce.slice(0, -1).map((_, i) => `${v.path}/coalesce/${i}`)
    return [{ field, by: earlier.length === 1 ? `the mapping's ${earlier[0]}` : `one of the mapping's ${earlier.join(', ')}` }]
  }

  /** Every problem at once; returns the values as the interface normalises them, folded where a column holds no Unicode (column-fit.ts). */
  private async validate (input: Partial<NewClient>, creating: boolean, at: Arrival): Promise<ClientValues> {
    const issues: FieldIssue[] = []
    const out: Partial<Record<ClientField, string>> = {}
    const { phone: phoneOptions, timezone } = this.compiled.model
    if (input.name !== undefined || creating) {
      // Composed (NFC): 'e' + U+0301 is the 'é' a code-page column can hold.
      const name = (input.name ?? '').normalize('NFC').trim().replace(/\s+/g, ' ')
      if (name === '') issues.push({ path: '/body/name', message: 'must not be blank' })
      else out.name = name
    }
    if (creating) {
      const phone = parsePhoneInput(input.phone ?? '', phoneOptions)
      if (!phone) issues.push({ path: '/body/phone', message: phoneInputProblem(input.phone ?? '', phoneOptions) })
      else if (this.maskProblem(phone) !== undefined) issues.push({ path: '/body/phone', message: this.maskProblem(phone) as string })
      else out.phone = phone
      const others = this.otherPhones(input.allPhones, phone, issues)
      if (others.length > 0) out.allPhones = others.join(PHONES_JOINED)
    }
    if (input.email !== undefined) {
      const email = input.email.normalize('NFC').trim()
      if (!EMAIL.test(email)) issues.push({ path: '/body/email', message: 'must be an e-mail address' })
      else out.email = email
    }
    if (input.cpf !== undefined) {
      const cpf = input.cpf.replace(/[.\-\s]/g, '')
      if (!/^\d{11}$/.test(cpf) || !isValidCpf(cpf)) issues.push({ path: '/body/cpf', message: 'must be a valid CPF (11 digits with correct check digits)' })
      else out.cpf = cpf
    }
    if (input.birthday !== undefined) {
      // The window of every date of the interface; a date-time gives its date as written, not
      // the clinic's (a birthday is a calendar date, and JS sends it as midnight UTC).
      const b = readApiCalendarDate(input.birthday, '/body/birthday', issues)
      if (b !== undefined && b > todayIn(timezone)) issues.push({ path: '/body/birthday', message: 'must not be in the future' })
      // Legacy systems write their "no date" at or before 1900-01-01, so Ponte reads those as none (normalise/datetime.ts).
      else if (b !== undefined && b <= LAST_SENTINEL_DATE) issues.push({ path: '/body/birthday', message: `must be after ${LAST_SENTINEL_DATE} (that day reads as "no date" in clinic databases)` })
      else if (b !== undefined) out.birthday = b
    }
    // An id that names nothing is a mistake worth hearing about even where the mapping does not
    // store it ("may be ignored if not applicable" is about storing, not about checking).
    for (const ref of ['healthInsurance', 'location'] as const) {
      const id = input[ref]
      if (id === undefined || !this.compiled.model.lookups[ref]) continue
      const snap = await this.catalog.snapshot(at)
      if (!snap.record(ref, id)) issues.push({ path: `/body/${ref}`, message: `no ${ref} with id "${id}"` })
      else out[ref] = id
    }
    const stored = await this.asStored(out, issues, at)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues)
    return stored
  }

  /** Why a number of the clinic's country cannot be written with the mapping's mask (`phoneFormat: '(###)###-####'`). */
  private maskProblem (e164: string): string | undefined {
    const format = this.compiled.model.client.write?.phoneFormat
    return isPhoneMask(format) ? phoneMaskProblem(e164, format, this.compiled.model.phone.defaultCountry) : undefined
  }

  /**
   * The numbers of `allPhones` not already sent (as `phone` or earlier in the list), in order;
   * more than the mapping has other phone columns for is refused naming allPhones.
   */
  private otherPhones (sent: string[] | undefined, phone: string | undefined, issues: FieldIssue[]): string[] {
    const numbers: string[] = []
    for (const [i, raw] of (sent ?? []).entries()) {
      const e164 = parsePhoneInput(raw, this.compiled.model.phone)
      const problem = e164 === undefined ? phoneInputProblem(raw, this.compiled.model.phone) : this.maskProblem(e164)
      if (problem !== undefined || e164 === undefined) issues.push({ path: `/body/allPhones/${i}`, message: problem ?? '' })
      else if (![phone, ...numbers].some((p) => p !== undefined && samePhone(p, e164))) numbers.push(e164)
    }
    const columns = this.writes.writers.allPhones?.columns.map((c) => `\`${c.column}\``) ?? []
    if (numbers.length > columns.length) {
      issues.push({
        path: '/body/allPhones',
        message: columns.length === 0
          ? 'holds numbers besides phone, and this installation keeps no other phone column to write them to (its mapping names one with the client\'s write.phone)'
          : `holds ${numbers.length} numbers besides phone, and this installation keeps ${columns.length} other phone column${columns.length === 1 ? '' : 's'} for them (${columns.join(', ')})`
      })
    }
    return numbers
  }

  /** The values as the clinic's columns will hold them (see column-fit.ts); what cannot fit is an issue. */
  private async asStored (values: Partial<Record<ClientField, string>>, issues: FieldIssue[], at: Arrival): Promise<Partial<Record<ClientField, string>>> {
    const live = clientTextColumns(this.compiled.model.client, await this.live.get(at))
    const out: Partial<Record<ClientField, string>> = {}
    for (const [field, value] of Object.entries(values) as [ClientField, string][]) {
      const writer = this.writes.writers[field] ?? this.writes.rowWriters[field]
      const fit = writer ? fitField(writer, value, live) : { value }
      if ('problem' in fit) issues.push({ path: `/body/${field}`, message: fit.problem })
      // A name may lose accents a code-page column cannot hold (search finds it the same); an address may not: it would be another mailbox.
      else if (field === 'email' && fit.value !== value) issues.push({ path: '/body/email', message: 'holds characters this installation\'s database cannot store' })
      else out[field] = fit.value as string
    }
    return out
  }
}

export function describe (issues: FieldIssue[]): string {
  return issues.map((i) => `${i.path.replace('/body/', '')} ${i.message}`).join('; ')
}

/** A client field as read back equals the value sent, compared as the interface normalises it. */
function readsAsSent (field: ClientField, sent: string, client: ClientT, upperNames: boolean): boolean {
  switch (field) {
    // GET returns the name as stored; `sent` is already what its column can hold (asStored:
    // composed, spaces collapsed, accents folded for a code-page column), so any other
    // difference, case included, is the database changing it (a trigger, a social name).
    // (`case: upper`: written upper-cased, so case alone does not count for the name.)
    case 'name': return upperNames ? client.name !== undefined && upperName(client.name) === upperName(sent) : client.name === sent
    case 'phone': return [client.phone, ...client.allPhones ?? []].some((p) => p !== undefined && samePhone(p, sent))
    case 'allPhones': return sent.split(PHONES_JOINED).every((n) => n === '' || (client.allPhones ?? []).some((p) => samePhone(p, n)))
    case 'email': return normaliseEmail(client.email) === normaliseEmail(sent)
    case 'cpf': return client.cpf?.replace(/\D/g, '') === sent
    case 'birthday': return client.birthday === sent
    default: return true
  }
}
