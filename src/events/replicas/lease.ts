// A lease in Redis that one replica at a time holds (the poller's, the webhook delivery's):
// taken with SET NX PX and a token of this process, renewed and released only while the token
// is still the key's (Lua, so atomic), retried by every replica every third of its life, so a
// holder killed with SIGKILL is replaced within about 4/3 of the lease.
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'

// 1: renewed (ours already), 2: taken now (it was free or lapsed), 0: another's.
const HOLD = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 2 end
return 0`
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

export class RedisLease {
  /** This process's token: what fences its writes (a script checks the key still holds it). */
  readonly token = `${hostname()}-${process.pid}-${randomUUID()}`
  private heldUntil = 0
  private timer: NodeJS.Timeout | undefined
  private turn: Promise<unknown> = Promise.resolve()

  /** `onTaken` runs after each take, before the lease counts as held (loading shared state). */
  constructor (
    private readonly redis: Redis,
    readonly key: string,
    readonly ttlMs: number,
    private readonly onTaken: () => Promise<void> = async () => {},
    private readonly onChange: (held: boolean) => void = () => {}
  ) {}

  /** Whether this process holds it now: taken, its state loaded, and not lapsed since. */
  get held (): boolean { return Date.now() < this.heldUntil }

  /** One attempt to take or renew; resolves to whether it is held after it. */
  async hold (): Promise<boolean> {
    const run = this.turn.then(async () => await this.attempt())
    this.turn = run.catch(() => {})
    return await run
  }

  /** Takes or renews now and then every third of the lease, until stop(). */
  start (): void {
    if (this.timer !== undefined) return
    const tick = (): void => {
      this.hold().catch(() => {}).finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, Math.max(50, Math.floor(this.ttlMs / 3))).unref()
      })
    }
    this.timer = setTimeout(tick, 0).unref()
  }

  /** Stops renewing and gives the lease up, so another replica takes it at once rather than at expiry. */
  async stop (): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    await this.turn
    const was = this.held
    this.heldUntil = 0
    if (was) this.onChange(false)
    await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => {})
  }

  private async attempt (): Promise<boolean> {
    const was = this.held
    const started = Date.now()
    let answer: number
    try {
      answer = Number(await this.redis.eval(HOLD, 1, this.key, this.token, this.ttlMs))
    } catch {
      // Redis unreachable: held until it would have lapsed, no longer (another may take it then).
      if (was && !this.held) this.onChange(false)
      return this.held
    }
    if (answer === 0) {
      this.heldUntil = 0
      if (was) this.onChange(false)
      return false
    }
    if (answer === 2 || !was) {
      // Loading a large window's memory may outlast the lease: it is kept renewed meanwhile.
      const renew = setInterval(() => { this.redis.eval(HOLD, 1, this.key, this.token, this.ttlMs).catch(() => {}) }, Math.max(50, Math.floor(this.ttlMs / 3)))
      try {
        await this.onTaken()
      } finally {
        clearInterval(renew)
      }
      // Renewed once more after the load, and counted from that renewal: still ours, or not held.
      const renewed = Date.now()
      if (Number(await this.redis.eval(HOLD, 1, this.key, this.token, this.ttlMs).catch(() => 0)) !== 1) return false
      this.heldUntil = renewed + this.ttlMs
      if (!was) this.onChange(true)
      return true
    }
    // Counted from before the call: a slow answer never stretches it past Redis's expiry.
    this.heldUntil = started + this.ttlMs
    return true
  }
}
