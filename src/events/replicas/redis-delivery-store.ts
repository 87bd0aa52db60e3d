// What each webhook subscriber has been sent, in Redis for replicas: the same contract as the
// SQLite DeliveryStore (delivery/store.ts), so the same dispatchers deliver through either.
// Per subscriber, a hash of its cursor and last error, and a hash of owed deliveries (seq →
// state); the event itself is read from the shared log. Copying events in and claiming an
// attempt are Lua scripts (atomic), so of two replicas that both see a delivery due exactly
// one sends it, and a cursor never moves back. Each replica renews, in a sorted set, when it
// last served each of its subscribers; one no replica has served for a grace period and absent
// from a replica's WEBHOOKS is forgotten, so it stops holding the log's trim.
import type { Redis } from 'ioredis'
import type { ChangeEvent } from '../event.js'
import type { DeadLetter, DeliveryState, Due, Forgotten, SubscriberCounts } from '../delivery/store.js'
import { redisCall, type EventKeys, type RedisEventLog } from './redis-log.js'

/**
 * One owed delivery as stored (short names: there may be many). `id` and `t` (the event's id
 * and type) name it in the dead-letter list should its event be evicted from the stream; rows
 * written before they were kept lack them.
 */
interface Row { a: string, id?: string, t?: string, st: 'pending' | 'dead', n: number, next: number, first: number | null, err: string | null, dead: number | null }

/** Why a delivery whose event is no longer in the stream was dead-lettered. */
export const EVENT_MISSING = 'event-missing'

// KEYS: subscriber, owed. ARGV: cursor, now, then (seq, appointment_id, id, type) per event. Returns the cursor now stored.
const ENQUEUE = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'cursor') or '0')
local now = tonumber(ARGV[2])
for i = 3, #ARGV, 4 do
  if tonumber(ARGV[i]) > stored then
    redis.call('HSETNX', KEYS[2], ARGV[i], cjson.encode({ a = ARGV[i + 1], id = ARGV[i + 2], t = ARGV[i + 3], st = 'pending', n = 0, next = now }))
  end
end
local moved = math.max(stored, tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'cursor', moved)
return moved`

// KEYS: owed. ARGV: seq, now, retryAt. Counts an attempt only when the delivery is owed, due
// and the earliest owed of its appointment (order per appointment).
const CLAIM = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local d = cjson.decode(v)
local seq = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
if d.st ~= 'pending' or d.next > now then return 0 end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local k = tonumber(all[i])
  if k < seq then
    local o = cjson.decode(all[i + 1])
    if o.st == 'pending' and o.a == d.a then return 0 end
  end
end
d.n = d.n + 1
d.next = tonumber(ARGV[3])
if d.first == nil or d.first == cjson.null then d.first = now end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(d))
return 1`

// KEYS: lease. ARGV: owner, ttl (ms). The SQLite store's lease contract: 1 when `owner` holds it now.
const LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

// KEYS: subscribers, seen, subscriber, owed. ARGV: name, cutoff (ms). Forgets the subscriber
// unless a replica served it after `cutoff`; returns how many deliveries went, or -1 when kept.
const FORGET = `
local at = redis.call('ZSCORE', KEYS[2], ARGV[1])
if at and tonumber(at) > tonumber(ARGV[2]) then return -1 end
local owed = redis.call('HLEN', KEYS[4])
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return owed`

export class RedisDeliveryStore implements DeliveryState {
  private readonly keys: EventKeys

  constructor (private readonly redis: Redis, private readonly log: RedisEventLog) {
    this.keys = log.keys
  }

  /**
   * Now on Redis's clock (ms): renewals and the forgetting cut-off are compared on one clock,
   * so a replica whose own clock runs ahead cannot forget a subscriber another still serves.
   */
  async clock (): Promise<number> {
    const [seconds, micros] = await this.call(async () => await this.redis.time())
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)
  }

  async cursor (subscriber: string, head: number): Promise<number> {
    const now = await this.clock()
    return await this.call(async () => {
      await this.redis.sadd(this.keys.subscribers, subscriber)
      await this.redis.zadd(this.keys.seen, now, subscriber)
      await this.redis.hsetnx(this.keys.subscriber(subscriber), 'cursor', head)
      return Number(await this.redis.hget(this.keys.subscriber(subscriber), 'cursor') ?? head)
    })
  }

  async enqueue (subscriber: string, events: ChangeEvent[], cursor: number, now: number): Promise<number> {
    return Number(await this.call(async () => await this.redis.eval(ENQUEUE, 2, this.keys.subscriber(subscriber), this.keys.owed(subscriber), cursor, now, ...events.flatMap((e) => [e.seq, e.appointmentId, e.id, e.type]))))
  }

  /**
   * The due deliveries with their events. One whose event is no longer in the stream (evicted
   * or trimmed by hand: Ponte's purge never removes an owed one) cannot be sent and would hold
   * its appointment's later events for ever: it is dead-lettered (`event-missing`) here and
   * returned as lost, so the caller says so.
   */
  async due (subscriber: string, now: number, limit: number): Promise<Due> {
    const rows = (await this.firsts(subscriber)).filter(([, r]) => r.next <= now).slice(0, limit)
    const events = await this.log.at(rows.map(([seq]) => seq))
    const due: Due = { owed: [], lost: [] }
    for (const [seq, r] of rows) {
      const event = events.get(seq)
      if (event !== undefined) {
        due.owed.push({ event, attempts: r.n, firstAttemptAt: r.first ?? null })
        continue
      }
      await this.update(subscriber, seq, (row) => row.st === 'pending' ? { ...row, st: 'dead', err: EVENT_MISSING, dead: now } : row)
      due.lost.push({ seq, appointmentId: r.a, eventId: r.id ?? null })
    }
    return due
  }

  async nextDue (subscriber: string): Promise<number | undefined> {
    const firsts = await this.firsts(subscriber)
    return firsts.length === 0 ? undefined : Math.min(...firsts.map(([, r]) => r.next))
  }

  async claim (subscriber: string, seq: number, now: number, retryAt: number): Promise<boolean> {
    return Number(await this.call(async () => await this.redis.eval(CLAIM, 1, this.keys.owed(subscriber), seq, now, retryAt))) === 1
  }

  /** The SQLite store's contract over a Redis key: `expiresAt - now` is the lease's life. */
  async lease (owner: string, now: number, expiresAt: number): Promise<boolean> {
    return Number(await this.call(async () => await this.redis.eval(LEASE, 1, this.keys.deliveryLease, owner, Math.max(1, expiresAt - now)))) === 1
  }

  async releaseLease (owner: string): Promise<void> {
    await this.call(async () => await this.redis.eval(RELEASE, 1, this.keys.deliveryLease, owner))
  }

  async delivered (subscriber: string, seq: number): Promise<void> {
    await this.call(async () => await this.redis.hdel(this.keys.owed(subscriber), String(seq)))
  }

  async failed (subscriber: string, seq: number, kind: string, now: number, retryAt: number | undefined): Promise<void> {
    await this.update(subscriber, seq, (r) => retryAt === undefined ? { ...r, st: 'dead', err: kind, dead: now } : { ...r, err: kind, next: retryAt })
    await this.call(async () => await this.redis.hset(this.keys.subscriber(subscriber), 'last_error', kind, 'last_error_at', now))
  }

  async interrupted (subscriber: string, seq: number, now: number): Promise<void> {
    await this.update(subscriber, seq, (r) => ({ ...r, next: now }))
  }

  async counts (subscriber: string): Promise<SubscriberCounts> {
    const rows = await this.rows(subscriber)
    const pending = rows.filter(([, r]) => r.st === 'pending')
    const lastError = await this.call(async () => await this.redis.hget(this.keys.subscriber(subscriber), 'last_error'))
    return { pending: pending.length, retrying: pending.filter(([, r]) => r.err != null).length, deadLettered: rows.length - pending.length, lastError }
  }

  /** Every dead letter, those whose event is gone (`event-missing`) included. */
  async deadLetters (subscriber?: string): Promise<DeadLetter[]> {
    return (await this.dead(subscriber)).map((d) => d.letter)
  }

  /** Dead letters owed again; not those whose event is gone from the stream: there is nothing left to send. */
  async replay (now: number, which: { eventId?: string, subscriber?: string }): Promise<number> {
    let n = 0
    for (const { letter: dead, inLog } of await this.dead(which.subscriber)) {
      if (!inLog || (which.eventId !== undefined && dead.eventId !== which.eventId)) continue
      await this.update(dead.subscriber, dead.seq, (r) => ({ ...r, st: 'pending', n: 0, first: null, dead: null, err: null, next: now }))
      n++
    }
    return n
  }

  /** Marks `names` as served by this replica now: none of them is forgotten while a replica renews it. */
  async renew (names: string[], now: number): Promise<void> {
    if (names.length === 0) return
    await this.call(async () => await this.redis.zadd(this.keys.seen, ...names.flatMap((name) => [now, name])))
  }

  /**
   * Forgets every subscriber Redis knows that `keep` (this replica's non-empty WEBHOOKS) does
   * not name and no replica has renewed since `now - graceMs`: its cursor and its owed and
   * dead-lettered deliveries. One never seen renewed (known before renewals were kept) gets the
   * grace from now. Returns what went (names and counts only).
   */
  async forgetUnseen (keep: string[], now: number, graceMs: number): Promise<Forgotten[]> {
    const absent = (await this.call(async () => await this.redis.smembers(this.keys.subscribers))).filter((name) => !keep.includes(name)).sort()
    const gone: Forgotten[] = []
    for (const name of absent) {
      await this.call(async () => await this.redis.zadd(this.keys.seen, 'NX', now, name))
      const owed = Number(await this.call(async () => await this.redis.eval(FORGET, 4, this.keys.subscribers, this.keys.seen, this.keys.subscriber(name), this.keys.owed(name), name, now - graceMs)))
      if (owed >= 0) gone.push({ name, owed })
    }
    return gone
  }

  private async dead (subscriber?: string): Promise<Array<{ letter: DeadLetter, inLog: boolean }>> {
    const names = subscriber !== undefined ? [subscriber] : (await this.call(async () => await this.redis.smembers(this.keys.subscribers))).sort()
    const out: Array<{ letter: DeadLetter, inLog: boolean }> = []
    for (const name of names) {
      const dead = (await this.rows(name)).filter(([, r]) => r.st === 'dead')
      const events = await this.log.at(dead.map(([seq]) => seq))
      for (const [seq, r] of dead) {
        const e = events.get(seq)
        const letter = { subscriber: name, eventId: e?.id ?? r.id ?? null, seq, type: e?.type ?? (r.t as DeadLetter['type'] | undefined) ?? null, appointmentId: r.a, attempts: r.n, lastError: r.err, deadAt: new Date(r.dead ?? 0).toISOString() }
        out.push({ letter, inLog: e !== undefined })
      }
    }
    return out
  }

  /** Owed rows, oldest first. */
  private async rows (subscriber: string): Promise<Array<[number, Row]>> {
    const all = await this.call(async () => await this.redis.hgetall(this.keys.owed(subscriber)))
    return Object.entries(all).map(([seq, v]) => [Number(seq), JSON.parse(v) as Row] as [number, Row]).sort((x, y) => x[0] - y[0])
  }

  /** The earliest pending delivery of each appointment, oldest first: the only ones that may be sent. */
  private async firsts (subscriber: string): Promise<Array<[number, Row]>> {
    const seen = new Set<string>()
    return (await this.rows(subscriber)).filter(([, r]) => {
      if (r.st !== 'pending' || seen.has(r.a)) return false
      seen.add(r.a)
      return true
    })
  }

  /** Rewrites one row if it is still there (a delivered row is gone, and stays gone). */
  private async update (subscriber: string, seq: number, change: (r: Row) => Row): Promise<void> {
    const key = this.keys.owed(subscriber)
    const v = await this.call(async () => await this.redis.hget(key, String(seq)))
    if (v === null) return
    await this.call(async () => await this.redis.hset(key, String(seq), JSON.stringify(change(JSON.parse(v) as Row))))
  }

  private async call<T> (fn: () => Promise<T>): Promise<T> { return await redisCall(fn) }
}
