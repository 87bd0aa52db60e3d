// V8 lets the old generation grow up to 4x its live size between full collections. A busy
// day's list is ~1 MB of JSON built from ~10 MB of short-lived rows and objects, and eight of
// them at once drove the heap's high-water mark to 300-360 MB compiled (issue 13). Capping the
// growth factor at 1.45x keeps that peak near 220 MB; it is not a limit: the heap still grows to
// whatever the live data needs, at the price of more frequent full collections. Measured on
// 1,000,000 clients, eight busy days at once: peak 220 MB at 1.4x, 234 MB at 1.6x (the whole
// bench reached 248 MB at 1.6x, too near its 250 MB target), 273 MB at 3x; the CPU of a busy
// day ~3 % more at 1.4x than at 1.6x, ~13 % less at 2x.
//
// Allocation-site pretenuring off. V8 notices that the objects made at one spot of the code
// mostly outlive a young-generation collection and from then on makes them straight in the old
// generation. A busy day's items do outlive it (all 1,000 are held until the answer is sent), so
// after a few busy days the row and item objects of every list were born old, and a 31-day
// minimal list, whose objects live for one day of the list, filled the old generation and drew a
// full collection every 300 ms (every few seconds otherwise): 30-33 ms of CPU a list against
// 24-26 ms, the collector's helper threads working four times as much. Off, the busy day costs
// no more and the process peaks lower (207 MB against 219 MB over the same run).
//
// V8 reads both flags as it goes, so setting them here reaches every way the server is started
// (npm start, npm run serve, node dist/server.js) and the SQLite worker's isolate too. Either
// flag given to node wins.
import { setFlagsFromString } from 'node:v8'

const OURS: Array<[name: string, flag: string]> = [
  ['heap-growing-percent', '--heap-growing-percent=45'],
  ['allocation-site-pretenuring', '--no-allocation-site-pretenuring']
]

/** Our V8 flags but those node was started with (`--x`, `--x=…`, `--no-x`, `-` or `_`): the operator's win. */
export function flagsToSet (execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map((arg) => arg.replace(/_/g, '-').replace(/=.*/s, '').replace(/^--?(no-?)?/, '')))
  return OURS.filter(([name]) => !given.has(name)).map(([, flag]) => flag)
}

for (const flag of flagsToSet(process.execArgv)) setFlagsFromString(flag)
