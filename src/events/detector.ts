// Change detection by fingerprint: a poll reads the watched window of appointments with the
// list's one range statement, compares each with what was seen before, and appends the
// differences as events. With a change marker, most polls read only the rows whose marker is
// at or past the last one seen, and the whole window every `windowEvery` polls (deletions, and
// changes that did not move the marker). A write through Ponte does the same for the appointment it wrote, at
// once. Comparing and appending happen one at a time in this process (never a poll's stale
// read over a write's fresh one) and in one transaction of the events store with the
// fingerprints, so a failure anywhere loses nothing and invents nothing: the next poll
// compares against the same memory.
import type { FastifyBaseLogger } from 'fastify'
import type { Ponte } from '../ponte.js'
import type { AppointmentT } from '../schemas/resources.js'
import { addDays, todayIn } from '../normalise/datetime.js'
import { safeError } from '../logging.js'
import { PonteError } from '../errors.js'
import type { PonteMetrics } from '../metrics/registry.js'
import type { ChangeEvent, NewEvent } from './event.js'
import type { EventLog } from './log.js'
import { FingerprintStore, type Identity } from './fingerprints.js'
import { eventsBetween, fingerprintOf, hashOf } from './fingerprint.js'
import { setImmediate } from 'node:timers/promises'
import { randomUUID } from 'node:crypto'

/** A log with the SQLite connection the fingerprints live on (SqliteEventLog; RedisEventLog's mirror). */
export type DetectorLog = Pick<EventLog, 'append'> & { db: import('better-sqlite3').Database }

export interface PollOutcome {
  /** Appointments read (the window and those read by id). */
  rows: number
  events: ChangeEvent[]
  /** false on the first poll of an empty store: the window was recorded, nothing emitted. */
  primed: boolean
  /** What the poll read: the whole window, or only the rows past the marker. */
  pass: 'window' | 'marker'
}

/** What an error is, in one word, for /ready and the log (never its text: it may quote a row). */
export function errorKind (err: unknown): string {
  return err instanceof PonteError ? err.type : 'internal'
}

/** Rows compared (or fingerprints written when priming) between yields to the event loop. */
const CHUNK = 500
/** Days of the window read per statement. */
const SLICE_DAYS = 7

export class ChangeDetector {
  private turn: Promise<unknown> = Promise.resolve()
  /** The bundled sample is a fresh copy each start: its fingerprints are never another start's. */
  private readonly sampleMarker = `sample:${randomUUID()}`
  /** Marker passes since the last window pass (in this process: a restart begins with a window pass). */
  private markerPasses: number | undefined

  /** `now`: the clock the window is taken from (a test moves the clinic's today with it). */
  static async open (log: DetectorLog, metrics: PonteMetrics, logger: FastifyBaseLogger, options: { busyTimeoutMs?: number, now?: () => Date } = {}): Promise<ChangeDetector> {
    return new ChangeDetector(log, await FingerprintStore.open(log.db, options.busyTimeoutMs), metrics, logger, options.now ?? (() => new Date()))
  }

  private constructor (readonly log: DetectorLog, private readonly store: FingerprintStore, private readonly metrics: PonteMetrics, private readonly logger: FastifyBaseLogger, private readonly now: () => Date) {}

  /**
   * Replicas (events/replicas/open.ts): hands a write's ids to the replica that polls, true when
   * it did (that one compares and emits them); unset or false: compared here.
   */
  handOff: ((ids: string[]) => Promise<boolean>) | undefined

  /** What `ponte`'s fingerprints are of: installation, database (no credentials), answered fields. */
  identityOf (ponte: Ponte): Identity {
    const url = ponte.config.databaseUrl
    const a = ponte.compiled.model.appointment
    const fields = JSON.stringify([Object.keys(a.start).sort(), Object.keys(a.end ?? {}).sort(), a.classification !== undefined, Object.keys(a.refs).sort()])
    return {
      installation: ponte.compiled.model.installation,
      database: url === undefined ? this.sampleMarker : url.split('?')[0].replace(/\/\/[^@/]*@/, '//'),
      fields
    }
  }

  /**
   * Whether the store's fingerprints were taken of `ponte`'s installation, database and fields;
   * when not, they are forgotten (the next poll records the window silently): another clinic's
   * ids are not this one's creations or deletions, nor a new mapped field an update of all.
   */
  private same (ponte: Ponte, identity: Identity): boolean {
    const was = this.store.identity
    if (this.matches(identity)) return true
    if (was !== undefined && (was.installation !== identity.installation || was.database !== identity.database)) {
      // Names only: the installation is the mapping's own label, never a patient's.
      this.logger.warn({ was: was.installation, now: identity.installation, sameDatabase: was.database === identity.database }, 'the events store was made for another installation or database: its fingerprints are forgotten and the next poll records the window without events')
    }
    return false
  }

  /**
   * One poll of `ponte`'s window; rejects when the database (or the events store) fails, or
   * `signal` aborts it (a shutdown need not wait out a long window), changing nothing.
   */
  async poll (ponte: Ponte, signal?: AbortSignal): Promise<PollOutcome> {
    const changes = ponte.compiled.model.appointment.changes
    if (changes === undefined) return { rows: 0, events: [], primed: this.store.primed, pass: 'window' }
    const identity = this.identityOf(ponte)
    if (!this.same(ponte, identity)) await this.oneAtATime(async () => await this.log.append([], () => { this.store.reprime(identity) }))
    const today = todayIn(ponte.compiled.model.timezone, this.now())
    const from = addDays(today, -changes.daysBefore)
    const to = addDays(today, changes.daysAfter)
    const marker = changes.marker
    const after = this.store.marker
    if (marker !== undefined && after !== undefined && this.store.primed && this.markerPasses !== undefined && this.markerPasses < marker.windowEvery - 1) {
      this.markerPasses++
      return await this.markerPass(ponte, after, from, to)
    }
    const since = this.store.current
    const keep = keepsAppointments(ponte)
    // Noted before the window is read: whatever changes after it is past it for the next marker pass.
    const newest = marker === undefined ? undefined : await ponte.appointments.lastMarker(undefined)
    // A week at a time, and only what differs from the store is kept: a long window (~200,000
    // appointments in a chain) is never in memory whole, and requests run between the reads.
    // One left out as unchanged is skipped by the comparison below too (the store can only
    // have recorded a write's newer reading of it meanwhile). Priming records each week as it
    // is read. One moved across weeks meanwhile is read twice (the later read wins) or is
    // missing below and read by id.
    const priming = !this.store.primed
    const seen = new Set<string>()
    const changed = new Map<string, AppointmentT>()
    for (let day = from; day <= to; day = addDays(day, SLICE_DAYS)) {
      const last = addDays(day, SLICE_DAYS - 1)
      const week = await ponte.appointments.between(day, last < to ? last : to, undefined)
      if (priming) await this.oneAtATime(async () => { await this.prime(week, since, keep, signal) })
      for (const a of week) {
        seen.add(a.id)
        if (priming || this.unchanged(a, keep)) changed.delete(a.id)
        else changed.set(a.id, a)
      }
      await setImmediate()
      signal?.throwIfAborted()
    }
    // Remembered in the window, not read in it: gone, or moved out (read by id to tell which).
    const missing = this.store.idsBetween(from, to).filter((id) => !seen.has(id))
    const elsewhere = new Map<string, AppointmentT | undefined>()
    for (const id of missing) elsewhere.set(id, await ponte.appointments.find(id, undefined))
    const released = await releasedOf(ponte, elsewhere)
    const rows = seen.size + missing.length
    this.metrics.changesRowsRead.inc(rows)
    const freeing = ponte.compiled.model.states.free
    return await this.oneAtATime(async () => {
      const primed = this.store.primed
      const previous = this.store.window
      // Dated outside the last poll's window: it entered by the calendar (the window moved or
      // widened), not by a booking, as far as a poll can tell.
      const entered = (date: string): boolean => previous !== undefined && (date < previous.from || date > previous.to)
      const events: NewEvent[] = []
      const record: Array<() => void> = []
      let n = 0
      for (const [id, now] of [...changed, ...elsewhere]) {
        // In slices: a large window must not hold the event loop (requests wait behind it).
        if (++n % CHUNK === 0) { await setImmediate(); signal?.throwIfAborted() }
        const before = this.store.recall(id)
        // A write through Ponte recorded it after this poll began reading: that is newer.
        if (before !== undefined && before.gen > since) continue
        if (now === undefined) {
          if (before === undefined) continue
          if (primed) events.push(...eventsBetween(id, before.fingerprint, now, freeing, released.has(id) ? {} : undefined))
          record.push(() => { this.store.forget(id) })
          continue
        }
        const f = fingerprintOf(now, keep)
        const hash = hashOf(f)
        // Unchanged: nothing to emit, nothing to rewrite.
        if (before !== undefined && before.hash === hash) continue
        if (primed && !(before === undefined && entered(now.date))) events.push(...eventsBetween(id, before?.fingerprint, now, freeing))
        const gen = before?.gen ?? 0
        record.push(() => { this.store.remember(id, f, hash, gen) })
      }
      // Priming emits nothing, so its many fingerprints may go in several short transactions
      // (a failure between them leaves the store unprimed: the next poll primes again).
      if (!primed) {
        while (record.length > CHUNK) {
          const some = record.splice(0, CHUNK)
          await this.log.append([], () => { for (const r of some) r() })
          await setImmediate()
        }
      }
      const done = await this.log.append(events, () => {
        for (const r of record) r()
        this.store.forgetBefore(from)
        this.store.setWindow({ from, to })
        if (!primed) this.store.markPrimed()
        if (newest !== undefined) this.store.setMarker(newest)
      })
      this.count(done, 'poll')
      if (marker !== undefined) this.markerPasses = 0
      return { rows, events: done, primed, pass: 'window' as const }
    })
  }

  /** Whether `a` reads as the store remembers it (nothing to emit or record). */
  private unchanged (a: AppointmentT, keep: boolean): boolean {
    const before = this.store.recall(a.id)
    return before !== undefined && before.hash === hashOf(fingerprintOf(a, keep))
  }

  /**
   * A priming poll's week: each appointment's fingerprint recorded (one a write of Ponte's has
   * recorded since the poll began is newer), in short transactions, emitting nothing. A
   * failure leaves the store unprimed: the next poll primes again.
   */
  private async prime (week: AppointmentT[], since: number, keep: boolean, signal?: AbortSignal): Promise<void> {
    for (let i = 0; i < week.length; i += CHUNK) {
      const some = week.slice(i, i + CHUNK)
      await this.log.append([], () => {
        for (const a of some) {
          const before = this.store.recall(a.id)
          if (before !== undefined && before.gen > since) continue
          const f = fingerprintOf(a, keep)
          const hash = hashOf(f)
          if (before === undefined || before.hash !== hash) this.store.remember(a.id, f, hash, before?.gen ?? 0)
        }
      })
      await setImmediate()
      signal?.throwIfAborted()
    }
  }

  /**
   * The rows past the marker, compared with their fingerprints: an appointment remembered, or
   * new on a day of the window (one outside it waits, as in a window pass, until it enters it).
   */
  private async markerPass (ponte: Ponte, after: string, from: string, to: string): Promise<PollOutcome> {
    const since = this.store.current
    const { appointments, last } = await ponte.appointments.markedSince(after, undefined)
    this.metrics.changesRowsRead.inc(appointments.length)
    const freeing = ponte.compiled.model.states.free
    const keep = keepsAppointments(ponte)
    return await this.oneAtATime(async () => {
      const events: NewEvent[] = []
      const record: Array<() => void> = []
      for (const now of appointments) {
        const before = this.store.recall(now.id)
        if (before !== undefined && before.gen > since) continue
        if (before === undefined && (now.date < from || now.date > to)) continue
        const f = fingerprintOf(now, keep)
        const hash = hashOf(f)
        if (before !== undefined && before.hash === hash) continue
        events.push(...eventsBetween(now.id, before?.fingerprint, now, freeing))
        const gen = before?.gen ?? 0
        record.push(() => { this.store.remember(now.id, f, hash, gen) })
      }
      const done = await this.log.append(events, () => {
        for (const r of record) r()
        this.store.setMarker(last)
      })
      this.count(done, 'poll')
      return { rows: appointments.length, events: done, primed: true, pass: 'marker' as const }
    })
  }

  /** Whether the store is not yet primed for `ponte` (its first poll records the window silently). */
  unprimed (ponte: Ponte): boolean {
    return ponte.compiled.model.appointment.changes !== undefined && (!this.store.primed || !this.matches(this.identityOf(ponte)))
  }

  /** Whether the store's fingerprints were taken of `identity` (no warning: `same` says why not). */
  private matches (identity: Identity): boolean {
    const was = this.store.identity
    return was !== undefined && was.installation === identity.installation && was.database === identity.database && was.fields === identity.fields
  }

  /**
   * After a write through Ponte: the appointments `ids` compared with their fingerprints and
   * their events appended before the answer is sent. Never fails the write (it is done): a
   * failure here is logged, and the next poll finds the same change. `state`: the state a
   * state change asked for (what a released open slot's appointment was canceled into).
   * `created`: a booking's new appointment as its transaction read it back, taken instead of
   * a read while nothing is recorded of its id (no later write or poll has seen it since).
   */
  async written (ponte: Ponte, ids: string[], state?: string, created?: AppointmentT): Promise<void> {
    if (ponte.compiled.model.appointment.changes === undefined) return
    try {
      if (this.handOff !== undefined && await this.handOff(ids)) return
      const freeing = ponte.compiled.model.states.free
      const keep = keepsAppointments(ponte)
      const as = state !== undefined && freeing.includes(state) ? state : undefined
      // Read in its turn: two writes' reads and records never cross (no state that never was).
      await this.oneAtATime(async () => {
        // A store not yet primed for this mapping: the priming poll records these silently.
        if (!this.store.primed || this.store.identity === undefined || !this.same(ponte, this.identityOf(ponte))) return
        const found = await Promise.all(ids.map(async (id) => [id, id === created?.id && this.store.recall(id) === undefined ? created : await ponte.appointments.find(id, undefined)] as const))
        const released = await releasedOf(ponte, new Map(found))
        const events = found.flatMap(([id, now]) => eventsBetween(id, this.store.recall(id)?.fingerprint, now, freeing, released.has(id) ? { as } : undefined))
        const done = await this.log.append(events, () => {
          for (const [id, now] of found) {
            if (now !== undefined) {
              const f = fingerprintOf(now, keep)
              this.store.remember(id, f, hashOf(f), this.store.next())
              continue
            }
            // A tombstone, not forgotten: a poll under way may have read the row before it went.
            const before = this.store.recall(id)
            if (before !== undefined) this.store.remember(id, { ...before.fingerprint, gone: true }, 'gone', this.store.next())
          }
        })
        this.count(done, 'write')
      })
    } catch (err) {
      this.logger.warn({ err: safeError(err), kind: errorKind(err) }, 'the events of a write through Ponte were not recorded; the next poll will find them')
    }
  }

  private count (events: ChangeEvent[], origin: 'poll' | 'write'): void {
    for (const e of events) this.metrics.changesDetected.inc({ type: e.type, origin })
  }

  private async oneAtATime<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn)
    this.turn = run.catch(() => {})
    return await run
  }
}

/**
 * Open slots: the fingerprints keep the whole appointment, since its row can become a free
 * row (no appointment) and the cancellation must still say what was canceled.
 */
function keepsAppointments (ponte: Ponte): boolean {
  return ponte.compiled.model.appointment.openSlots !== undefined
}

/** Of the ids read as no appointment, those whose row is an open slot's free row (released, not deleted). */
async function releasedOf (ponte: Ponte, read: Map<string, AppointmentT | undefined>): Promise<Set<string>> {
  const out = new Set<string>()
  if (!keepsAppointments(ponte)) return out
  for (const [id, now] of read) if (now === undefined && await ponte.appointments.isOpenSlot(id, undefined)) out.add(id)
  return out
}
