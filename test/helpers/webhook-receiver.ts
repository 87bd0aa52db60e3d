// A webhook receiver for the delivery tests: a real HTTP server that verifies every request
// with standardwebhooks' own verifier and answers as the test decides (a status, or never).
import { writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { Test } from 'tap'

export interface Received {
  webhookId: string
  body: { id: string, seq: number, type: string, timestamp: string, data: Record<string, unknown> }
  /** The appointment the event is about, read from the payload. */
  appointmentId: string
  /** What the receiver answered (0: held open, never answered). */
  status: number
}

/** Decides each answer: a status, or 'hold' to keep the request open until the receiver closes. */
export type Answer = (r: Omit<Received, 'status'>) => number | 'hold'

export class WebhookReceiver {
  readonly received: Received[] = []
  /** Requests the verifier refused (each a test failure). */
  readonly unverified: string[] = []
  answer: Answer = () => 200
  private readonly server: Server
  private readonly held = new Set<ServerResponse>()
  private readonly waiters = new Set<() => void>()

  private constructor (private readonly secret: string) {
    this.server = createServer((req, res) => { this.handle(req, res) })
  }

  /** Listens on `port` (0: any free one). */
  static async start (secret: string, port = 0): Promise<WebhookReceiver> {
    const r = new WebhookReceiver(secret)
    await new Promise<void>((resolve, reject) => {
      r.server.once('error', reject)
      r.server.listen(port, '127.0.0.1', () => { resolve() })
    })
    return r
  }

  get url (): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }

  /** The answered deliveries (2xx), in the order they arrived. */
  get delivered (): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300)
  }

  /** Resolves once `done()` holds, looked at on each request (and at once). */
  async until (done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((resolve) => { this.waiters.add(resolve) })
  }

  async close (): Promise<void> {
    for (const res of this.held) res.destroy()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => { this.server.close(() => { resolve() }) })
  }

  private handle (req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h] ?? '')]))
      try {
        new Webhook(this.secret).verify(text, headers)
      } catch (err) {
        this.unverified.push((err as Error).message)
        res.statusCode = 400
        res.end()
        this.notify()
        return
      }
      const body = JSON.parse(text) as Received['body']
      const appointment = (body.data.appointment as { id?: string } | undefined)?.id ?? String(body.data.id)
      const seen = { webhookId: headers['webhook-id'], body, appointmentId: appointment }
      const answer = this.answer(seen)
      this.received.push({ ...seen, status: answer === 'hold' ? 0 : answer })
      if (answer === 'hold') this.held.add(res)
      else {
        res.statusCode = answer
        res.end('ok')
      }
      this.notify()
    })
  }

  private notify (): void {
    const all = [...this.waiters]
    this.waiters.clear()
    for (const w of all) w()
  }
}

/** A Standard Webhooks secret for tests: `whsec_` and 32 random bytes in base64. */
export function testSecret (): string {
  return `whsec_${Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))).toString('base64')}`
}

/** A receiver for `t`'s subscriber, closed when `t` ends; `port` to listen again where one was (0: any free one). */
export async function receiverFor (t: Test, secret: string, port = 0): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start(secret, port)
  t.teardown(async () => { await receiver.close() })
  return receiver
}

/** A subscriber as a server's WEBHOOKS file names it: its secret read from `secretEnv`. */
export interface FileSubscriber { name: string, url: string, secretEnv: string, events?: string[] }

/** Writes the WEBHOOKS file for `subscribers` at `file`, and gives `file` back for the server's env. */
export function webhooksFile (file: string, subscribers: FileSubscriber[]): string {
  writeFileSync(file, `subscribers:\n${subscribers.map((s) =>
    `  - name: ${s.name}\n    url: ${s.url}\n    secretEnv: ${s.secretEnv}\n${s.events ? `    events: [${s.events.join(', ')}]\n` : ''}`).join('')}`)
  return file
}
