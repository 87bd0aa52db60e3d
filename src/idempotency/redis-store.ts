// The Idempotency-Key store in Redis, for several Ponte processes behind one load balancer:
// the same contract as the SQLite store (store.ts), so a retry through any replica is answered
// as one process would answer it.
//
// One Redis string per (scope, key): `SET … NX PX` claims a key atomically for the request in
// flight (expiring after abandonAfterMs, so a crashed replica's claim lapses); completing and
// releasing are Lua scripts that act only while the caller's lease still holds the key, so a
// request that outlived its claim cannot overwrite a retry's. Answered keys live ttlMs.
import { createHash, randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { BeginResult, IdempotencyStoreOptions, KeyStore, StoredResponse } from './store.js'
import { HOUR_MS } from './store.js'

interface Entry {
  state: 'in-flight' | 'done'
  fingerprint: string
  lease?: string
  status?: number
  headers?: StoredResponse['headers']
  /** base64 when the body was bytes, else text */
  body?: string
  bytes?: boolean
}

// KEYS[1] = the entry; ARGV = lease, new value, ttl (ms). Acts only while the lease holds it.
const COMPLETE = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local e = cjson.decode(v)
if e.state ~= 'in-flight' or e.lease ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`
const RELEASE = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local e = cjson.decode(v)
if e.state ~= 'in-flight' or e.lease ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`

export class RedisIdempotencyStore implements KeyStore {
  readonly ttlMs: number
  readonly abandonAfterMs: number

  constructor (private readonly redis: Redis, options: IdempotencyStoreOptions & { prefix?: string } = {}) {
    this.ttlMs = options.ttlMs ?? 24 * HOUR_MS
    this.abandonAfterMs = options.abandonAfterMs ?? 5 * 60 * 1000
    this.prefix = options.prefix ?? 'ponte:idempotency:'
  }

  private readonly prefix: string

  /** The key's own text is hashed: any length or character the header allows fits a Redis key. */
  private entryKey (scope: string, key: string): string {
    return `${this.prefix}${scope}:${createHash('sha256').update(key).digest('hex')}`
  }

  async begin (scope: string, key: string, fingerprint: string): Promise<BeginResult> {
    const k = this.entryKey(scope, key)
    // A claim released between our failed SET and our GET is simply claimed again: bounded.
    for (let attempt = 0; attempt < 3; attempt++) {
      const lease = randomUUID()
      const claim: Entry = { state: 'in-flight', fingerprint, lease }
      if (await this.redis.set(k, JSON.stringify(claim), 'PX', this.abandonAfterMs, 'NX') === 'OK') return { kind: 'new', lease }
      const raw = await this.redis.get(k)
      if (raw === null) continue
      const entry = JSON.parse(raw) as Entry
      if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' }
      if (entry.state === 'in-flight') return { kind: 'in-flight' }
      const body = entry.bytes === true ? Buffer.from(entry.body ?? '', 'base64') : entry.body ?? ''
      return { kind: 'replay', response: { status: entry.status ?? 200, headers: entry.headers ?? {}, body } }
    }
    return { kind: 'in-flight' }
  }

  async complete (scope: string, key: string, response: StoredResponse, lease?: string): Promise<boolean> {
    const k = this.entryKey(scope, key)
    const raw = await this.redis.get(k)
    if (raw === null) return false
    const entry = JSON.parse(raw) as Entry
    const bytes = typeof response.body !== 'string'
    const done: Entry = {
      state: 'done',
      fingerprint: entry.fingerprint,
      status: response.status,
      headers: response.headers,
      body: bytes ? Buffer.from(response.body).toString('base64') : response.body as string,
      bytes
    }
    return await this.redis.eval(COMPLETE, 1, k, lease ?? entry.lease ?? '', JSON.stringify(done), this.ttlMs) === 1
  }

  async release (scope: string, key: string, lease?: string): Promise<boolean> {
    const k = this.entryKey(scope, key)
    if (lease === undefined) return await this.redis.del(k) > 0
    return await this.redis.eval(RELEASE, 1, k, lease) === 1
  }

  /** The Redis connection belongs to whoever made it (app.ts closes it). */
  close (): void {}
}
