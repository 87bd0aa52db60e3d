// Issue 12, "concurrency for real": 50 concurrent bookings of one free slot against the real
// local MariaDB and PostgreSQL servers give exactly one success and one legacy row, through
// each dialect's own locking; and the same while the clinic's desktop system (a second
// connection of its own) keeps inserting appointments into the same table, taking its keys
// the way the legacy program does, none of which may be lost or refused. Requests go over
// HTTP to a real Ponte process, so they race through everything Ponte has.
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { TEST_KEY } from '../../helpers/app.js'
import { startServer, type ServerProcess } from '../../helpers/server-process.js'
import { REAL_SERVERS, urlVia, type RealServer, type SideConnection } from '../../helpers/real-servers.js'
import { storedSlot, mobile, bookingBody, type FreeSlot, type Test } from '../../helpers/writes.js'
import { loadMapping } from '../../../src/installation.js'
import type { MappingModel } from '../../../src/mapping/model.js'

const MAPPING = 'mappings/clinica-sorriso.yaml'
const FIXTURE = 'fixtures/clinica-sorriso/fixture.json'
const BOOKINGS = 50
// The acquire bound is generous here: this test is about the booking lock, not the pool
// (test/system/faults/servers-*.test.ts bound the pool); 50 bookings queue for 5 connections.
const SETTINGS = { poolMax: 5, connectTimeoutMs: 10_000, statementTimeoutMs: 15_000 }

t.setTimeout(300_000)

interface Reply { status: number, body: any, text: string, ms: number }

async function send (ponte: ServerProcess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
  const started = performance.now()
  const res = await fetch(ponte.url(path), {
    method,
    headers: { authorization: `Bearer ${TEST_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000)
  })
  const text = await res.text()
  let parsed: any
  try { parsed = JSON.parse(text) } catch {}
  return { status: res.status, body: parsed, text, ms: performance.now() - started }
}

/** Legacy SQL from the side, in the server's own quoting and placeholders. */
class LegacyTable {
  constructor (readonly server: RealServer, readonly side: SideConnection, readonly database: string, readonly model: MappingModel) {}

  private get appt (): MappingModel['appointment'] { return this.model.appointment }
  private ident (c: string): string { return this.server.dialect.ident(c) }
  private ph (i: number): string { return this.server.dialect.placeholder(i) }
  private get table (): string { return this.server.table(this.database, this.appt.table) }
  get keyColumn (): string { return this.appt.key.column }

  /** The column that names a row's professional (the last rule's, as concurrency.test.ts reads it). */
  get professionalColumn (): string {
    const pro = this.appt.refs.professional as any
    return pro.column ?? pro.rules.at(-1).column
  }

  async count (): Promise<number> {
    return Number((await this.side.query(`SELECT COUNT(*) AS n FROM ${this.table}`))[0].n)
  }

  /** Keys of the rows (deleted or not) of one professional at one date and hour. */
  async keysAt (slot: FreeSlot): Promise<string[]> {
    const where = Object.entries(storedSlot(this.model, slot.date, slot.hour))
    const conditions = [...where.map(([c], i) => `${this.ident(c)} = ${this.ph(i + 1)}`), `${this.ident(this.professionalColumn)} = ${this.ph(where.length + 1)}`]
    const rows = await this.side.query(`SELECT ${this.ident(this.keyColumn)} AS k FROM ${this.table} WHERE ${conditions.join(' AND ')}`,
      [...where.map(([, v]) => v), Number(slot.professional)])
    return rows.map((r) => String(r.k))
  }

  async existing (keys: string[]): Promise<number> {
    if (keys.length === 0) return 0
    const rows = await this.side.query(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${this.ident(this.keyColumn)} IN (${keys.map((_, i) => this.ph(i + 1)).join(', ')})`, keys.map(Number))
    return Number(rows[0].n)
  }

  async someRow (): Promise<Record<string, any>> {
    const rows = await this.side.query(`SELECT * FROM ${this.table} ORDER BY ${this.ident(this.keyColumn)}`)
    if (rows.length === 0) throw new Error('the legacy appointment table is empty')
    return rows[0]
  }

  /**
   * One appointment as the clinic's desktop program writes it: its own transaction, the key
   * from the key table (UPDATE … + 1, then read), then the row. Returns the key.
   */
  async desktopInsert (desktop: SideConnection, template: Record<string, any>, values: Record<string, unknown>): Promise<string> {
    const gen = (this.appt.write as any)?.key ?? { generate: 'identity' }
    const row: Record<string, unknown> = { ...template, ...values }
    await desktop.query('BEGIN')
    try {
      if (gen.generate === 'keyTable') {
        const keys = this.server.table(this.database, gen.table)
        await desktop.query(`UPDATE ${keys} SET ${this.ident(gen.valueColumn)} = ${this.ident(gen.valueColumn)} + 1 WHERE ${this.ident(gen.nameColumn)} = ${this.ph(1)}`, [gen.name])
        const [{ v }] = await desktop.query(`SELECT ${this.ident(gen.valueColumn)} AS v FROM ${keys} WHERE ${this.ident(gen.nameColumn)} = ${this.ph(1)}`, [gen.name])
        row[this.keyColumn] = Number(v)
      } else if (gen.generate === 'identity') {
        delete row[this.keyColumn]
      } else {
        throw new Error(`test: the desktop system does not know ${String(gen.generate)} keys`)
      }
      const columns = Object.keys(row)
      await desktop.query(`INSERT INTO ${this.table} (${columns.map((c) => this.ident(c)).join(', ')}) VALUES (${columns.map((_, i) => this.ph(i + 1)).join(', ')})`, columns.map((c) => row[c]))
      const key = gen.generate === 'identity'
        ? String((await desktop.query(`SELECT MAX(${this.ident(this.keyColumn)}) AS k FROM ${this.table}`))[0].k)
        : String(row[this.keyColumn])
      await desktop.query('COMMIT')
      return key
    } catch (err) {
      await desktop.query('ROLLBACK').catch(() => undefined)
      throw err
    }
  }
}

/** Free slots of one professional and service, none overlapping (through /availability). */
async function freeSlots (ponte: ServerProcess, start: string, end: string): Promise<FreeSlot[]> {
  const pros = (await send(ponte, 'GET', '/professionals?enabled=true')).body as any[]
  for (const p of pros) {
    const services = (await send(ponte, 'GET', `/services?professional=${encodeURIComponent(p.id)}&enabled=true`)).body as any[]
    const s = services.find((x) => typeof x.duration === 'number' && x.duration > 0)
    if (!s) continue
    const r = await send(ponte, 'GET', `/availability?start=${start}&end=${end}&professional=${encodeURIComponent(p.id)}&service=${encodeURIComponent(s.id)}`)
    if (r.status !== 200) throw new Error(`GET /availability → ${r.status} ${r.text.slice(0, 200)}`)
    const slots: FreeSlot[] = []
    for (const x of r.body) {
      if (slots.some((y) => y.date === x.date && y.hour < x.endHour && x.hour < y.endHour)) continue
      slots.push({ date: x.date, hour: x.hour, endHour: x.endHour, professional: x.professional.id, location: x.location?.id, service: x.service?.id })
    }
    if (slots.length >= 5) return slots
  }
  throw new Error('no professional with free slots')
}

for (const server of Object.values(REAL_SERVERS)) {
  t.test(`${server.label}: concurrent bookings of one slot`, async (t) => {
    await server.reachable()
    const scratch = await server.scratch(FIXTURE)
    t.teardown(async () => { await scratch.drop() })
    const ponte = await startServer({ DATABASE_URL: urlVia(scratch.url, undefined, SETTINGS), MAPPING, API_KEYS: TEST_KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' })
    t.teardown(async () => { await ponte.stop() })
    const side = await server.side(scratch.database)
    t.teardown(async () => { await side.close() })
    const model = loadMapping(MAPPING)
    const legacy = new LegacyTable(server, side, scratch.database, model)

    // Different clients, so that no client's own agenda is what refuses anyone.
    const clients: string[] = []
    for (let batch = 0; batch < BOOKINGS * 2; batch += 10) {
      const replies = await Promise.all(Array.from({ length: 10 }, async (_, j) =>
        await send(ponte, 'POST', '/clients', { name: `Paciente Corrida ${batch + j}`, phone: mobile('11', 5_100_000 + (batch + j) * 2_003) })))
      for (const r of replies) {
        if (r.status !== 200) throw new Error(`POST /clients → ${r.status} ${r.text.slice(0, 200)}`)
        clients.push(r.body.id)
      }
    }
    if (new Set(clients).size !== clients.length) throw new Error('POST /clients handed out one id twice')
    const slots: FreeSlot[] = []
    for (const s of await freeSlots(ponte, '2027-02-01', '2027-02-26')) if ((await legacy.keysAt(s)).length === 0) slots.push(s)
    if (slots.length < 2) throw new Error('fewer than two free slots without any legacy row')

    /** 50 bookings of `slot` at once; judged by what callers and the legacy table show. */
    const race = async (t: Test, slot: FreeSlot, who: string[]): Promise<void> => {
      const started = performance.now()
      const replies = await Promise.all(who.map(async (client) => await send(ponte, 'POST', '/appointments', bookingBody(slot, client))))
      const took = performance.now() - started
      const won = replies.filter((r) => r.status === 200)
      const refused = replies.filter((r) => r.status === 409)
      t.equal(won.length, 1, 'exactly one booking succeeds (200)')
      t.equal(refused.length, BOOKINGS - 1, `${BOOKINGS - 1} × 409`)
      t.same(replies.filter((r) => r.status !== 200 && r.status !== 409).map((r) => `${r.status} ${r.text.slice(0, 160)}`), [], 'no other answer')
      for (const r of refused.slice(0, 3)) {
        t.equal(r.body?.type, 'https://ponte.dev/problems/conflict', 'a refused booking is a conflict problem', { body: r.body })
      }
      const keys = await legacy.keysAt(slot)
      t.equal(keys.length, 1, `one legacy row for professional ${slot.professional} on ${slot.date} at ${slot.hour}`)
      t.equal(keys[0], won[0]?.body?.id, 'and it is the one answered 200')
      const listed = await send(ponte, 'GET', `/appointments?start=${slot.date}&end=${slot.date}&professional=${encodeURIComponent(slot.professional)}`)
      t.same((listed.body ?? []).filter((x: any) => x.hour === slot.hour).map((x: any) => x.id), [won[0]?.body?.id], 'GET /appointments shows that one appointment in the slot')
      t.comment(`${server.label}: ${BOOKINGS} bookings of ${slot.date} ${slot.hour} answered in ${Math.round(took)} ms (slowest reply ${Math.round(Math.max(...replies.map((r) => r.ms)))} ms): ${won.length} × 200, ${refused.length} × 409`)
    }

    await t.test(`${BOOKINGS} concurrent bookings of one free slot → one 200, ${BOOKINGS - 1} × 409, one new legacy row`, async (t) => {
      const before = await legacy.count()
      await race(t, slots[0], clients.slice(0, BOOKINGS))
      t.equal(await legacy.count(), before + 1, 'the table has exactly one row more')
    })

    await t.test('the same while the desktop system keeps inserting into the same table', async (t) => {
      const desktop = await server.side(scratch.database)
      t.teardown(async () => { await desktop.close() })
      const template = await legacy.someRow()
      // Another professional than the one being booked, on days nobody books here.
      const other = String(template[legacy.professionalColumn]) === slots[1].professional ? Number(slots[1].professional) + 1 : template[legacy.professionalColumn]
      const before = await legacy.count()
      const inserted: string[] = []
      const failures: string[] = []
      const waits: number[] = []
      let racing = true
      const desktopRun = (async () => {
        for (let i = 0; racing || i < 5; i++) {
          const hour = `${String(7 + (i % 12)).padStart(2, '0')}:${i % 2 === 0 ? '00' : '30'}`
          const values: Record<string, unknown> = { [legacy.professionalColumn]: other, ...storedSlot(model, `2027-07-${String(1 + (i % 28)).padStart(2, '0')}`, hour) }
          const started = performance.now()
          try {
            inserted.push(await legacy.desktopInsert(desktop, template, values))
          } catch (err) {
            failures.push(`${(err as { code?: string }).code ?? ''} ${(err as Error).message}`)
          }
          waits.push(performance.now() - started)
        }
      })()
      await sleep(100) // the desktop is already writing when the bookings arrive
      await race(t, slots[1], clients.slice(BOOKINGS, BOOKINGS * 2)).finally(() => { racing = false })
      await desktopRun
      t.same(failures, [], 'every desktop insert succeeded (none refused or chosen as a deadlock victim because of Ponte)')
      t.ok(inserted.length >= 5, `the desktop inserted ${inserted.length} rows meanwhile`)
      t.equal(new Set(inserted).size, inserted.length, 'with distinct keys')
      t.equal(await legacy.existing(inserted), inserted.length, 'every desktop row is still there')
      t.equal(await legacy.count(), before + 1 + inserted.length, 'the table grew by the desktop rows and exactly one booking')
      t.comment(`${server.label}: desktop inserted ${inserted.length} rows during the race, slowest ${Math.round(Math.max(0, ...waits))} ms, ${failures.length} failed`)
    })
  })
}
