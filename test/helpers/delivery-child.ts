// A delivery process for the SIGKILL test: delivers EVENTS_STORE's log to one subscriber
// (HOOK_URL, HOOK_SECRET) until it is killed.
import pino from 'pino'
import { SqliteEventLog } from '../../src/events/log.js'
import { WebhookDelivery } from '../../src/events/delivery/delivery.js'
import { EVENT_TYPES } from '../../src/events/event.js'

const log = await SqliteEventLog.open(process.env.EVENTS_STORE ?? '', { pollMs: 20 })
const delivery = await WebhookDelivery.open(log, {
  subscribers: [{ name: 'crm', url: process.env.HOOK_URL ?? '', secret: process.env.HOOK_SECRET ?? '', events: new Set(EVENT_TYPES) }],
  timeoutMs: 3000,
  retryForMs: 600_000,
  backoffMs: 20,
  backoffMaxMs: 100,
  concurrency: 3,
  pollMs: 50
}, pino({ level: 'silent' }))
delivery.start()
process.stdout.write('delivering\n')
