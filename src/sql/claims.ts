// Booking's claims (Database.transaction) on a server that takes them as application locks:
// the statements of the dialect's `claim`, and the name each claim locks.
import { createHash } from 'node:crypto'
import type { Dialect } from './dialect.js'
import type { Statement } from './statement.js'

export interface ClaimStatements {
  /** Binds `name`; one row whose `claimed` is the server's answer. */
  take: Statement
  /** Binds `name`; where the lock outlives the transaction. */
  release?: Statement
}

export function claimStatements (d: Dialect): ClaimStatements | undefined {
  if (!d.claim) return undefined
  const statement = (name: string, sql: string): Statement => ({ name, sql, params: [{ type: 'text', source: { input: 'name' } }] })
  const { take, release } = d.claim
  return {
    take: statement('booking.claim', take(d.placeholder(1))),
    ...(release ? { release: statement('booking.release', release(d.placeholder(1))) } : {})
  }
}

/** Statements taking and giving back `count` claims in one round trip each (names bound as `name0`…), where the dialect has them. */
export function allClaimsStatements (d: Dialect, count: number): Required<ClaimStatements> | undefined {
  const all = d.claim?.all
  if (!all) return undefined
  const params = Array.from({ length: count }, (_, i) => ({ type: 'text' as const, source: { input: `name${i}` } }))
  const placeholders = params.map((_, i) => d.placeholder(i + 1))
  return {
    take: { name: 'booking.claim', sql: all.take(placeholders), params },
    release: { name: 'booking.release', sql: all.release(placeholders), params }
  }
}

/** The names, bound as allClaimsStatements' statements take them. */
export const claimArgs = (names: string[]): Record<string, string> => Object.fromEntries(names.map((n, i) => [`name${i}`, n]))

/**
 * The lock names of a transaction's claims, each once and in one order for every transaction
 * (two bookings taking two names in opposite orders would deadlock). A hash of the database
 * and the claim: any id fits the server's limit (64 characters on MySQL), and installations
 * sharing a server never wait for each other (MySQL's names are server-wide).
 */
export function claimNames (database: string, claims: readonly string[]): string[] {
  const names = claims.map((c) => `ponte:${createHash('sha256').update(`${database}\n${c}`).digest('hex').slice(0, 40)}`)
  return [...new Set(names)].sort()
}
