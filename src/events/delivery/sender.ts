// One delivery attempt: the event as a Standard Webhooks payload, signed, POSTed, and what came
// of it as a short kind (`http-503`, `timeout`, `connection`) that names no URL or body.
import { Webhook } from 'standardwebhooks'
import type { ChangeEvent } from '../event.js'
import type { Subscriber } from './subscribers.js'

export type Attempt = { ok: true, status: number } | { ok: false, kind: string, stopped: boolean }

/** The body receivers get: Standard Webhooks' `{ type, timestamp, data }`, with the event's id and place. */
export function payloadOf (event: ChangeEvent): string {
  return JSON.stringify({ id: event.id, seq: event.seq, type: event.type, timestamp: event.seenAt, data: event.data })
}

export class Sender {
  private readonly signer: Webhook

  constructor (private readonly subscriber: Subscriber, private readonly timeoutMs: number, private readonly now: () => number = Date.now) {
    this.signer = new Webhook(subscriber.secret)
  }

  /** POSTs `event`; `stop` (shutdown) aborts the request, reported as `stopped`, not as the receiver's failure. */
  async send (event: ChangeEvent, stop: AbortSignal): Promise<Attempt> {
    const body = payloadOf(event)
    const at = new Date(this.now())
    const timeout = AbortSignal.timeout(this.timeoutMs)
    try {
      const res = await fetch(this.subscriber.url, {
        method: 'POST',
        body,
        // A redirect is not followed: a 3xx is the receiver's answer, and a failed attempt.
        redirect: 'manual',
        signal: AbortSignal.any([stop, timeout]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Ponte-Webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': this.signer.sign(event.id, at, body)
        }
      })
      // The receiver's body is not read: only the status counts.
      await res.body?.cancel().catch(() => {})
      return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status } : { ok: false, kind: `http-${res.status}`, stopped: false }
    } catch {
      if (stop.aborted) return { ok: false, kind: 'stopped', stopped: true }
      return { ok: false, kind: timeout.aborted ? 'timeout' : 'connection', stopped: false }
    }
  }
}
