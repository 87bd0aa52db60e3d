// What one change-detection poll costs the clinic's database: the detector of src/events/ run
// against a (grown) installation, counting the statements it sends, the rows they return and
// the time spent in them, for the priming poll and for window passes that find nothing new.
//   npx tsx bench/grow.ts --sample clinica-sorriso --clients 100000 --appointments 2000000 --out /tmp/chain-2m.sqlite
//   npx tsx bench/poll-cost.ts --db sqlite:/tmp/chain-2m.sqlite [--mapping mappings/clinica-sorriso.yaml] [--polls 3]
// The clock is the grown sample's "today" (2026-11-27, noon in the clinic), so the mapping's
// window (`changes.window`) covers the days the grower filled. Prints one JSON line per poll.
import { Command } from 'commander'
import { pino } from 'pino'
import { openInstallation } from '../src/installation.js'
import { createPonte } from '../src/ponte.js'
import { loadConfig } from '../src/config.js'
import { SqliteEventLog } from '../src/events/log.js'
import { ChangeDetector } from '../src/events/detector.js'
import type { Database } from '../src/db/database.js'

const o = new Command()
  .requiredOption('--db <url>', 'the grown database (DATABASE_URL form)')
  .option('--mapping <file>', 'its mapping', 'mappings/clinica-sorriso.yaml')
  .option('--polls <n>', 'window passes after the priming one', (v) => Number(v), 3)
  .option('--today <date>', 'the clinic\'s today', '2026-11-27')
  .parse().opts<{ db: string, mapping: string, polls: number, today: string }>()

const inst = await openInstallation(o.mapping, o.db)
const tally = { statements: 0, rows: 0, ms: 0 }
// Every statement the poll sends, counted where it leaves for the database.
const counted = new Proxy(inst.db, {
  get (target, prop, receiver) {
    if (prop !== 'query') return Reflect.get(target, prop, receiver)
    return async (...args: Parameters<Database['query']>) => {
      const began = performance.now()
      const rows = await target.query(...args)
      tally.ms += performance.now() - began
      tally.statements++
      tally.rows += rows.length
      return rows
    }
  }
})
const ponte = createPonte(loadConfig({ API_KEYS: 'k'.repeat(24), IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:' }), counted, inst.compiled)
const log = await SqliteEventLog.open(':memory:')
const clock = new Date(`${o.today}T15:00:00Z`)
const detector = await ChangeDetector.open(log, ponte.metrics, pino({ level: 'silent' }), { now: () => clock })
const changes = inst.compiled.model.appointment.changes
const dialect = inst.db.dialect.name

for (let i = 0; i <= o.polls; i++) {
  Object.assign(tally, { statements: 0, rows: 0, ms: 0 })
  const cpu = process.cpuUsage()
  const began = performance.now()
  const out = await detector.poll(ponte)
  const wall = performance.now() - began
  const c = process.cpuUsage(cpu)
  console.log(JSON.stringify({
    dialect,
    poll: out.primed ? 'window pass' : 'priming',
    window: changes ? `${changes.daysBefore} day(s) before … ${changes.daysAfter} after` : null,
    rowsRead: out.rows,
    events: out.events.length,
    statements: tally.statements,
    rowsReturned: tally.rows,
    msInDatabase: Math.round(tally.ms),
    msWall: Math.round(wall),
    msPonteCpu: Math.round((c.user + c.system) / 1000)
  }))
}
log.close()
await inst.close()
