// node --import tsx scripts/measure-sqlite-statements.ts (run it against an older driver.ts to compare)
// Per-statement cost of the driver: a one-row read by key (appointments/{id}'s statement) and
// the 1-day and 7-day lists, run one after another: wall and process CPU per statement.
import { openSample } from '../src/installation.js'
const inst = await openSample('mappings/clinica-sorriso.yaml')
const get = (n: string) => inst.compiled.statements().find((s) => s.name === n)!
const cases: [string, any, Record<string, unknown>, number][] = [
  ['byId (1 row)', get('appointment.byId[]'), { id: 191066 }, 4000],
  ['list 1 day', get('appointment.list[]'), { from: '2026-11-27', to: '2026-11-27' }, 300],
  ['list 7 days', get('appointment.list[]'), { from: '2026-11-23', to: '2026-11-29' }, 60]
]
for (const [name, s, args, n] of cases) {
  let rows = 0
  for (let i = 0; i < Math.max(20, n / 10); i++) rows = (await inst.db.query(s, args)).length
  const c0 = process.cpuUsage(); const t0 = performance.now()
  for (let i = 0; i < n; i++) await inst.db.query(s, args)
  const wall = (performance.now() - t0) / n; const c = process.cpuUsage(c0)
  console.log(`${name.padEnd(14)} ${String(rows).padStart(5)} rows  ${wall.toFixed(3).padStart(8)} ms wall  ${((c.user + c.system) / 1000 / n).toFixed(3).padStart(8)} ms CPU`)
}
await inst.close()
