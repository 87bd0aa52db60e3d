// The event log replicas share (REDIS_URL): a Redis stream whose entry ids are the log's own
// cursor (`<seq>-0`, seq from one INCR), so every replica's GET /events reads the same events
// under the same ids in the same order. The detector's memory (fingerprints, window, marker)
// lives in Redis hashes beside it and is worked on in an in-memory SQLite mirror (the detector
// reads it synchronously): the mirror is loaded when this replica takes the poller lease, and
// what an append changes in it (captured by triggers into a journal) is written to Redis in the
// same script as the events, which refuses unless this replica still holds the lease (fencing).
import { randomUUID } from 'node:crypto'
import BetterSqlite3 from 'better-sqlite3'
import type { Redis } from 'ioredis'
import { EventStoreUnavailableError } from '../../errors.js'
import type { ChangeEvent, EventType, NewEvent } from '../event.js'
import type { EventLog } from '../log.js'
import { FingerprintStore } from '../fingerprints.js'
import type { RedisLease } from './lease.js'
import { Appends, purgeEvery } from '../appends.js'

/** The keys of one installation's events, under REDIS_EVENTS_PREFIX. */
export function eventKeys (prefix: string) {
  return {
    seq: `${prefix}seq`,
    log: `${prefix}log`,
    fingerprints: `${prefix}fingerprints`,
    detector: `${prefix}detector`,
    pollerLease: `${prefix}poller-lease`,
    deliveryLease: `${prefix}delivery-lease`,
    written: `${prefix}written`,
    subscribers: `${prefix}subscribers`,
    /** When each subscriber was last served by a replica (ms, a sorted set): who may be forgotten. */
    seen: `${prefix}subscribers-seen`,
    subscriber: (name: string) => `${prefix}subscriber:${name}`,
    owed: (name: string) => `${prefix}owed:${name}`
  }
}
export type EventKeys = ReturnType<typeof eventKeys>

// KEYS: lease, seq, log, fingerprints, detector. ARGV: token, n, n × (id, type, seen_at,
// appointment_id, data), then (table, put|del, key, value) per change of the detector's memory.
const APPEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('NOTLEADER this replica does not hold the poller lease') end
local n = tonumber(ARGV[2])
local seqs = {}
local i = 3
for e = 1, n do
  local seq = redis.call('INCR', KEYS[2])
  redis.call('XADD', KEYS[3], seq .. '-0', 'id', ARGV[i], 'type', ARGV[i + 1], 'seen_at', ARGV[i + 2], 'appointment_id', ARGV[i + 3], 'data', ARGV[i + 4])
  seqs[e] = seq
  i = i + 5
end
while i <= #ARGV do
  local h = KEYS[5]
  if ARGV[i] == 'fp' then h = KEYS[4] end
  if ARGV[i + 1] == 'put' then redis.call('HSET', h, ARGV[i + 2], ARGV[i + 3]) else redis.call('HDEL', h, ARGV[i + 2]) end
  i = i + 4
end
return seqs`

// Every change to the detector's tables, as Redis must repeat it (the gen column is this process's alone).
const JOURNAL = `
CREATE TABLE IF NOT EXISTS replica_journal (n INTEGER PRIMARY KEY, tbl TEXT NOT NULL, action TEXT NOT NULL, key TEXT NOT NULL, value TEXT);
CREATE TRIGGER IF NOT EXISTS fp_ins AFTER INSERT ON appointment_fingerprints BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('fp', 'put', NEW.id, json_object('date', NEW.date, 'hash', NEW.hash, 'fingerprint', NEW.fingerprint)); END;
CREATE TRIGGER IF NOT EXISTS fp_upd AFTER UPDATE ON appointment_fingerprints BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('fp', 'put', NEW.id, json_object('date', NEW.date, 'hash', NEW.hash, 'fingerprint', NEW.fingerprint)); END;
CREATE TRIGGER IF NOT EXISTS fp_del AFTER DELETE ON appointment_fingerprints BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('fp', 'del', OLD.id, NULL); END;
CREATE TRIGGER IF NOT EXISTS st_ins AFTER INSERT ON detector_state BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('st', 'put', NEW.name, NEW.value); END;
CREATE TRIGGER IF NOT EXISTS st_upd AFTER UPDATE ON detector_state BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('st', 'put', NEW.name, NEW.value); END;
CREATE TRIGGER IF NOT EXISTS st_del AFTER DELETE ON detector_state BEGIN
  INSERT INTO replica_journal (tbl, action, key, value) VALUES ('st', 'del', OLD.name, NULL); END;
`

// Fingerprints read per HSCAN call when the mirror is loaded; events per XRANGE when purging.
const LOAD_PAGE = 1000
const PURGE_PAGE = 500

interface JournalRow { tbl: string, action: string, key: string, value: string | null }

export class RedisEventLog implements EventLog {
  private readonly appends: Appends
  private turn: Promise<unknown> = Promise.resolve()
  /** The poller lease whose token fences appends (set once the lease exists: it loads this mirror). */
  lease: RedisLease | undefined

  /** The in-memory mirror of the detector's memory (the detector's FingerprintStore opens on it). */
  readonly db: BetterSqlite3.Database

  static async open (redis: Redis, keys: EventKeys, options: { pollMs?: number } = {}): Promise<RedisEventLog> {
    const db = new BetterSqlite3(':memory:')
    // The detector's tables, made by their own module, then the journal over them.
    await FingerprintStore.open(db)
    db.exec(JOURNAL)
    return new RedisEventLog(redis, keys, db, options.pollMs ?? 250)
  }

  private constructor (private readonly redis: Redis, readonly keys: EventKeys, db: BetterSqlite3.Database, private readonly pollMs: number) {
    this.db = db
    this.appends = new Appends(async () => await this.head(), this.pollMs)
  }

  /**
   * Appends the events and what `alongside` changes in the detector's memory, in one Redis
   * script that runs only while this replica holds the poller lease; the mirror's changes are
   * rolled back when it fails, so mirror and Redis never part.
   */
  async append (events: NewEvent[], alongside?: () => void): Promise<ChangeEvent[]> {
    if (events.length === 0 && alongside === undefined) return []
    const done = await this.inTurn(async () => {
      this.db.exec('BEGIN')
      let committed = false
      try {
        alongside?.()
        const ops = this.db.prepare<[], JournalRow>('SELECT tbl, action, key, value FROM replica_journal ORDER BY n').all()
        this.db.exec('DELETE FROM replica_journal')
        const now = new Date().toISOString()
        const made = events.map((e) => ({ id: `evt_${randomUUID()}`, type: e.type, seenAt: e.seenAt ?? now, appointmentId: e.appointmentId, data: e.data }))
        const args = [
          this.lease?.token ?? '', String(made.length),
          ...made.flatMap((e) => [e.id, e.type, e.seenAt, e.appointmentId, JSON.stringify(e.data)]),
          ...ops.flatMap((o) => [o.tbl, o.action, o.key, o.value ?? ''])
        ]
        const seqs = await this.call(async () => await this.redis.eval(APPEND, 5, this.keys.pollerLease, this.keys.seq, this.keys.log, this.keys.fingerprints, this.keys.detector, ...args) as number[])
        this.db.exec('COMMIT')
        committed = true
        return made.map((e, i) => ({ seq: Number(seqs[i]), ...e }))
      } finally {
        if (!committed) this.db.exec('ROLLBACK')
      }
    })
    if (done.length > 0) this.appends.emit(done[done.length - 1].seq)
    return done
  }

  /**
   * Replaces the mirror with the detector's memory as Redis holds it: on taking the poller
   * lease, since another replica may have polled meanwhile.
   */
  async load (): Promise<void> {
    await this.inTurn(async () => {
      // In pages: a window of many appointments is never one reply (each command has a timeout).
      const fingerprints: string[] = []
      let cursor = '0'
      do {
        const [next, page] = await this.call(async () => await this.redis.hscan(this.keys.fingerprints, cursor, 'COUNT', LOAD_PAGE))
        fingerprints.push(...page)
        cursor = next
      } while (cursor !== '0')
      const state = await this.call(async () => await this.redis.hgetall(this.keys.detector))
      const putFp = this.db.prepare<[string, string, string, string]>('INSERT OR REPLACE INTO appointment_fingerprints (id, date, hash, fingerprint, gen) VALUES (?, ?, ?, ?, 0)')
      const putSt = this.db.prepare<[string, string]>('INSERT INTO detector_state (name, value) VALUES (?, ?)')
      this.db.transaction(() => {
        this.db.exec('DELETE FROM appointment_fingerprints; DELETE FROM detector_state')
        for (let i = 0; i < fingerprints.length; i += 2) {
          const f = JSON.parse(fingerprints[i + 1]) as { date: string, hash: string, fingerprint: string }
          putFp.run(fingerprints[i], f.date, f.hash, f.fingerprint)
        }
        for (const [name, value] of Object.entries(state)) putSt.run(name, value)
        this.db.exec('DELETE FROM replica_journal')
      })()
    })
  }

  async after (cursor: number, limit: number): Promise<ChangeEvent[]> {
    const entries = await this.call(async () => await this.redis.xrange(this.keys.log, `(${cursor}-0`, '+', 'COUNT', limit))
    return entries.map(toEvent)
  }

  /** The events at `seqs` (those still in the log), for the delivery store. */
  async at (seqs: number[]): Promise<Map<number, ChangeEvent>> {
    if (seqs.length === 0) return new Map()
    const pipeline = this.redis.pipeline()
    for (const s of seqs) pipeline.xrange(this.keys.log, `${s}-0`, `${s}-0`)
    const results = await this.call(async () => await pipeline.exec()) ?? []
    const found = new Map<number, ChangeEvent>()
    for (const [err, entries] of results) {
      if (err !== null) await redisCall(async () => { throw err })
      for (const e of entries as Array<[string, string[]]>) { const ev = toEvent(e); found.set(ev.seq, ev) }
    }
    return found
  }

  async head (): Promise<number> {
    return Number(await this.call(async () => await this.redis.get(this.keys.seq)) ?? 0)
  }

  async oldestCursor (): Promise<number> {
    const first = await this.call(async () => await this.redis.xrange(this.keys.log, '-', '+', 'COUNT', 1))
    return first.length === 0 ? 0 : Math.max(0, toEvent(first[0]).seq - 1)
  }

  /**
   * Deletes events seen before `before` (ms) as one prefix of the stream, as the SQLite log
   * does: never past the first event still owed to a subscriber or its cursor, always keeping
   * the newest. Returns how many.
   */
  async purge (before: number): Promise<number> {
    const iso = new Date(before).toISOString()
    let bound = (await this.head()) - 1
    // A delivery whose event is already gone from the stream (evicted) holds nothing back.
    const gone = await this.oldestCursor()
    for (const name of await this.call(async () => await this.redis.smembers(this.keys.subscribers))) {
      const cursor = await this.call(async () => await this.redis.hget(this.keys.subscriber(name), 'cursor'))
      if (cursor !== null) bound = Math.min(bound, Number(cursor))
      const owed = (await this.call(async () => await this.redis.hkeys(this.keys.owed(name)))).map(Number).filter((seq) => seq > gone)
      if (owed.length > 0) bound = Math.min(bound, Math.min(...owed) - 1)
    }
    // The last event seen before `before`, reading from the oldest a page at a time.
    let old = 0
    let from = '-'
    for (;;) {
      const page = (await this.call(async () => await this.redis.xrange(this.keys.log, from, '+', 'COUNT', PURGE_PAGE))).map(toEvent)
      const young = page.findIndex((e) => e.seenAt >= iso || e.seq > bound)
      if (young >= 0) { old = young > 0 ? page[young - 1].seq : old; break }
      if (page.length < PURGE_PAGE) { old = page.length > 0 ? page[page.length - 1].seq : old; break }
      old = page[page.length - 1].seq
      from = `(${old}-0`
    }
    bound = Math.min(bound, old)
    if (bound <= 0) return 0
    return await this.call(async () => await this.redis.xtrim(this.keys.log, 'MINID', `${bound + 1}-0`))
  }

  /** Purges events older than `retentionMs` now and every `everyMs`; returns the stop. */
  purgeEvery (retentionMs: number, everyMs: number): () => void {
    return purgeEvery(async (cutoff) => await this.purge(cutoff), () => Date.now(), retentionMs, everyMs)
  }

  async waitAfter (cursor: number, ms: number, signal?: AbortSignal): Promise<void> {
    await this.appends.waitAfter(cursor, ms, signal)
  }

  /** The mirror only: the Redis connection belongs to whoever opened it. */
  close (): void {
    if (this.db.open) this.db.close()
  }

  /** Local transactions on the mirror, one at a time (an append awaits Redis inside one). */
  private async inTurn<T> (fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn)
    this.turn = run.catch(() => {})
    return await run
  }

  private async call<T> (fn: () => Promise<T>): Promise<T> { return await redisCall(fn) }
}

/**
 * A Redis failure (down, timed out, lease lost) is the event store being unavailable: a 503
 * kind. Its cause keeps only the reply's code (`NOTLEADER`, `ECONNREFUSED`): ioredis's error
 * carries the command's arguments, and an event's arguments name a patient.
 */
export async function redisCall<T> (fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof EventStoreUnavailableError) throw err
    const e = err as { code?: unknown, message?: unknown }
    const code = typeof e.code === 'string' ? e.code : typeof e.message === 'string' ? /^[A-Z]+/.exec(e.message)?.[0] : undefined
    throw new EventStoreUnavailableError(new Error(code ?? 'redis'))
  }
}

function toEvent ([entryId, fields]: [string, string[]]): ChangeEvent {
  const f: Record<string, string> = {}
  for (let i = 0; i < fields.length; i += 2) f[fields[i]] = fields[i + 1]
  return { seq: Number(entryId.split('-')[0]), id: f.id, type: f.type as EventType, seenAt: f.seen_at, appointmentId: f.appointment_id, data: JSON.parse(f.data) as Record<string, unknown> }
}
