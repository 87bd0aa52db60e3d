// Reading GET /events and /ready's poll count from a scratch server (scratch-servers.ts), for
// the change-detection tests: polls are waited for by count, bounded, never by a fixed sleep.
import type { ServerScratch } from './scratch-servers.js'

export interface Ev { seq: number, id: string, type: string, appointmentId: string, seenAt: string, data: any }

export const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** Polls done so far, as /ready says. */
export async function polls (s: ServerScratch): Promise<{ polls: number, lastError: string | null }> {
  const res = await s.call('GET', '/ready')
  return res.body.changes
}

/** Waits until `n` more polls have ended (bounded: a stuck poller fails the test, not hangs it). */
export async function morePolls (s: ServerScratch, n: number, until?: (p: { polls: number, lastError: string | null }) => boolean): Promise<void> {
  const target = (await polls(s)).polls + n
  for (let i = 0; i < 1200; i++) {
    const p = await polls(s)
    if (p.polls >= target && (until === undefined || until(p))) return
    await sleep(50)
  }
  throw new Error('the poller did not poll')
}

/** Events after `after`, waiting for the first up to 10 s, then two more polls for any that follow it. */
export async function eventsAfter (s: ServerScratch, after: number): Promise<Ev[]> {
  const first = await s.call('GET', `/events?after=${after}&wait=10`)
  if (first.status !== 200) throw new Error(JSON.stringify(first.body))
  await morePolls(s, 2)
  return (await s.call('GET', `/events?after=${after}&limit=500`)).body.events
}

/** The feed's head: the cursor after every event so far. */
export async function head (s: ServerScratch): Promise<number> {
  return (await s.call('GET', '/events?after=0&limit=500')).body.next
}

/** The events after `after`, at once (no wait). */
export async function eventsNow (s: ServerScratch, after: number): Promise<Ev[]> {
  return (await s.call('GET', `/events?after=${after}&limit=500`)).body.events
}
