// Start-up: config → database → app → listen; graceful shutdown on SIGINT/SIGTERM; the
// mapping (reload.ts) and the webhook subscribers (events/delivery/reload.ts) reloaded on SIGHUP.
// This process must be the one a supervisor signals: `npm start` execs node in place of its
// shell (a shell does not pass SIGTERM on) and loads TypeScript with `--import tsx` in this
// same process (the `tsx` command would run the server in a child of its own). npm itself
// stays above it and does not pass SIGHUP on: PID_FILE names this process, and a server npm
// started stops when npm does (parent.ts).
import { rm, writeFile } from 'node:fs/promises'
import closeWithGrace from 'close-with-grace'
import { ConfigError, loadConfig } from './config.js'
import { MappingError } from './mapping/errors.js'
import { openInstallation, openSample, type Installation } from './installation.js'
import { createPonte } from './ponte.js'
import { buildApp } from './app.js'
import { safeError } from './logging.js'
import { reloadMapping } from './reload.js'
import { metricsServer } from './plugins/metrics.js'
import { listen, StartError } from './listen.js'
import { startedByNpm, whenParentExits } from './parent.js'
import { forgetRemovedSubscribers, openWebhooks } from './events/delivery/open.js'
import { SqliteEventLog } from './events/log.js'
import { reloadWebhooks } from './events/delivery/reload.js'
import { ReplicaEvents } from './events/replicas/open.js'

// Dates bound to SQL Server are built from wall-clock parts (sql/mssql/driver.ts): a process time
// zone without daylight saving means no such time is ever skipped or doubled.
process.env.TZ = 'UTC'

async function main (): Promise<void> {
  const config = loadConfig()
  const inst: Installation = config.databaseUrl
    ? await openInstallation(config.mapping, config.databaseUrl, undefined, { structural: config.structuralCheck })
    : await openSample(config.mapping, { structural: config.structuralCheck })
  const ponte = createPonte(config, inst.db, inst.compiled, undefined, inst.catalog)
  // One event log (Ponte's own file) for change detection, GET /events and webhooks, so an
  // event appended by a write wakes delivery at once.
  // Replicas (REDIS_URL) share that log, and one poller and one deliverer, through Redis.
  const replicas = config.redisUrl !== undefined ? await ReplicaEvents.open({ ...config, redisUrl: config.redisUrl }) : undefined
  const eventLog = replicas?.log ?? await SqliteEventLog.open(config.eventsStore, { busyTimeoutMs: config.idempotencyBusyTimeoutMs })
  // Without change detection nothing is ever appended for delivery to send: refused, rather
  // than a delivery that starts and silently never sends.
  if (config.webhooks.subscribers.length > 0 && inst.compiled.model.appointment.changes === undefined) {
    throw new StartError(`WEBHOOKS lists subscribers, but the mapping of installation "${inst.model.installation}" declares no appointment.changes: no event would ever be sent (add resources.appointment.changes, or unset WEBHOOKS)`)
  }
  // Before the app's first purge: a subscriber removed from WEBHOOKS holds no event back.
  if (eventLog instanceof SqliteEventLog) await forgetRemovedSubscribers(eventLog, config)
  // Webhooks (WEBHOOKS): prepared now, so /ready shows them; sending starts once listening.
  const webhooks = config.webhooks.subscribers.length > 0 ? await openWebhooks(replicas ?? eventLog as SqliteEventLog, config, ponte.metrics) : undefined
  const app = await buildApp(ponte, { eventLog, webhooks, replicas })
  // Operators' own listener for /metrics (METRICS_PORT), apart from the interface's.
  const metrics = config.metricsPort !== undefined ? await metricsServer(ponte.metrics) : undefined

  // One reload at a time; a SIGHUP during a reload runs one more after it (the file may have
  // changed again).
  let reloading: Promise<void> | undefined
  let again = false
  const reload = async (): Promise<void> => {
    do {
      again = false
      await reloadMapping(app)
      // WEBHOOKS too, apart from the mapping: either may fail and leave the other reloaded.
      if (webhooks && config.webhooks.file !== undefined) await reloadWebhooks(webhooks, config.webhooks.file, process.env, app.log)
    } while (again)
  }
  process.on('SIGHUP', () => {
    if (reloading) { again = true; return }
    reloading = reload().finally(() => { reloading = undefined })
  })

  // In-flight requests finish, new ones get a 503 problem (plugins/draining.ts); past the
  // deadline, or on a second signal, the process exits anyway (code 1).
  const { close } = closeWithGrace({
    delay: config.shutdownTimeoutMs,
    // SIGHUP reloads the mapping (below); it does not stop Ponte.
    skip: ['SIGHUP'],
    logger: { error: (message: unknown) => { app.log.error(String(message)) } },
    onTimeout: (delay) => { app.log.error({ delay }, 'shutdown deadline passed; exiting with requests unfinished') }
  }, async ({ signal, err }) => {
    if (err) app.log.error({ err: safeError(err) }, 'shutting down after an unhandled error')
    else app.log.info({ signal }, 'shutting down')
    // First: requests in flight are aborted and stay owed, before the events file closes.
    await webhooks?.stop()
    await app.close()
    eventLog.close()
    await replicas?.close()
    await metrics?.close()
    await inst.close()
    if (config.pidFile) await rm(config.pidFile, { force: true })
  })
  if (startedByNpm()) {
    whenParentExits(() => {
      app.log.warn('the parent process (npm) has exited')
      void close()
    })
  }

  // The first writes through Ponte are events only once the store knows the window.
  await app.changePoller.prime()
  await listen(app, config.port, config.host)
  if (metrics && config.metricsPort !== undefined) await listen(metrics, config.metricsPort, config.metricsHost, 'METRICS_PORT')
  if (config.pidFile) {
    const pidFile = config.pidFile
    await writeFile(pidFile, `${process.pid}\n`).catch((err: NodeJS.ErrnoException) => { throw new StartError(`cannot write PID_FILE ${pidFile} (${err.code ?? 'error'})`) })
  }
  // Without Redis the events are this process's own: a second replica elsewhere would poll and
  // deliver too, and nothing here can see it (docs/operations.md, Replicas).
  // A warning where a second one would deliver every webhook twice.
  if (!replicas && inst.compiled.model.appointment.changes !== undefined) app.log[webhooks ? 'warn' : 'info']({ replicas: 'unshared' }, 'events are detected and delivered by this process alone (no REDIS_URL): run one replica, or set REDIS_URL so replicas share one poller and one log')
  if (webhooks) {
    webhooks.start()
    app.log.info({ subscribers: config.webhooks.subscribers.map((s) => s.name) }, 'webhook delivery started')
  }
  const where = config.databaseUrl ? 'the configured database' : 'the bundled sample installation (a fresh SQLite copy)'
  app.log.info({ installation: inst.model.installation, basePath: config.basePath || '/' }, `Ponte serving ${where}`)
  // STRUCTURAL_CHECK=not-ready: listening, but answering 503 until the mapping is corrected.
  if (inst.mismatch) app.log.error({ problems: inst.mismatch.length }, 'the mapping does not fit the database: not ready (GET /ready lists the places to fix; run ponte check)')
  if (config.generatedKey) {
    // Printed, not logged: a development convenience, never in production (config refuses it there).
    process.stdout.write(`\nDevelopment API key for this run (set API_KEYS to choose your own):\n  ${config.generatedKey}\n` +
      `Try: curl -H "Authorization: Bearer ${config.generatedKey}" http://localhost:${config.port}${config.basePath}/professionals\n\n`)
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof MappingError || err instanceof StartError) {
    process.stderr.write(`${err.message}\n`)
  } else {
    process.stderr.write(`Ponte could not start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  }
  process.exit(1)
})
