// `ponte webhooks dead-letters|replay`: the deliveries given up on, and sending them again, on
// the events file (EVENTS_STORE) a server may be using at the same time.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { DEFAULT_REDIS_EVENTS_PREFIX, defaultStateFile } from '../config.js'
import { SqliteEventLog } from '../events/log.js'
import { DeliveryStore, type DeliveryState } from '../events/delivery/store.js'
import { UsageError, type Done } from './usage.js'

const storeOption = ['--store <file>', 'the events file (default: the replicas\' Redis when $REDIS_URL is set, else $EVENTS_STORE, else the server\'s default)'] as const

export function webhooksCommand (cli: Command, done: Done): void {
  const webhooks = cli.command('webhooks').description('webhook deliveries: the dead-letter list and replay')
  webhooks.command('dead-letters')
    .description('list the deliveries given up on (exit 1 when there are any); no payload is shown')
    .option(...storeOption)
    .option('-s, --subscriber <name>', 'only this subscriber\'s')
    .option('--json', 'one JSON array instead of lines')
    .action(async (o: { store?: string, subscriber?: string, json?: boolean }) => {
      const dead = await withStore(o.store, async (store) => await store.deadLetters(o.subscriber))
      if (o.json === true) process.stdout.write(`${JSON.stringify(dead, null, 2)}\n`)
      else if (dead.length === 0) process.stdout.write('no dead-lettered deliveries\n')
      else {
        for (const d of dead) {
          process.stdout.write(`${d.subscriber}\t${d.eventId ?? '-'}\tseq ${d.seq}\t${d.type ?? '-'}\tappointment ${d.appointmentId}\t${d.attempts} attempts\t${d.lastError ?? '-'}\tdead since ${d.deadAt}\n`)
        }
      }
      if (dead.length > 0) done(1)
    })

  webhooks.command('replay')
    .description('send dead-lettered deliveries again, with a fresh retry period (a running server picks them up within a second)')
    .argument('[event-id]', 'the event to send again (evt_…)')
    .option('--all', 'every dead-lettered delivery')
    .option(...storeOption)
    .option('-s, --subscriber <name>', 'only to this subscriber')
    .action(async (eventId: string | undefined, o: { all?: boolean, store?: string, subscriber?: string }) => {
      if ((eventId === undefined) === (o.all !== true)) throw new UsageError('webhooks replay: give an event id or --all (not both)')
      const count = await withStore(o.store, async (store) => await store.replay(Date.now(), { eventId, subscriber: o.subscriber }))
      process.stdout.write(`${count} ${count === 1 ? 'delivery' : 'deliveries'} owed again\n`)
      if (count === 0 && eventId !== undefined) {
        process.stderr.write(`ponte: no dead-lettered delivery of ${eventId}${o.subscriber !== undefined ? ` to ${o.subscriber}` : ''}\n`)
        done(1)
      }
    })
}

async function withStore<T> (given: string | undefined, use: (store: DeliveryState) => Promise<T>): Promise<T> {
  // Replicas keep deliveries in Redis (REDIS_URL, under REDIS_EVENTS_PREFIX), as the server does.
  const redisUrl = process.env.REDIS_URL?.trim()
  if (given === undefined && redisUrl) {
    const { ReplicaEvents } = await import('../events/replicas/open.js')
    const shared = await ReplicaEvents.deliveryStore(redisUrl, process.env.REDIS_EVENTS_PREFIX?.trim() || DEFAULT_REDIS_EVENTS_PREFIX)
    try {
      return await use(shared.store)
    } finally {
      await shared.close()
    }
  }
  const env = process.env.EVENTS_STORE?.trim()
  const file = resolve(given ?? (env || defaultStateFile('events.sqlite')))
  // Never creates a file: a wrong path is said as such, not answered with an empty list.
  if (!existsSync(file)) throw new UsageError(`no events file at ${file} (give --store or set EVENTS_STORE)`)
  const log = await SqliteEventLog.open(file)
  try {
    return await use(await DeliveryStore.open(log.db))
  } finally {
    log.close()
  }
}
