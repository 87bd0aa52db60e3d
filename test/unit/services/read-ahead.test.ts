// Issue 13: a streamed list may not hold its connection at a slow client's pace. On SQLite the
// one connection serves every request: a client that stops reading a long list must not stop
// the others. Past STREAM_HOLD_MS the rest of the list is read into memory and the connection
// let go; the client still gets exactly the bytes of the whole list.
import tap from 'tap'
import type { Readable } from 'node:stream'
import { holdingAtMost } from '../../../src/services/read-ahead.js'
import { sampleApp, SAMPLES } from '../../helpers/app.js'

const LONG = { start: '2026-10-01', end: '2026-12-31' }
const sleep = async (ms: number): Promise<'slept'> => await new Promise((resolve) => setTimeout(() => resolve('slept'), ms))

async function text (r: Readable): Promise<string> {
  let out = ''
  for await (const c of r) out += String(c)
  return out
}

tap.test('a list its client stops reading lets the connection go after STREAM_HOLD_MS', async (t) => {
  for (const [holdMs, served] of [[50, true], [600_000, false]] as const) {
    const a = await sampleApp(SAMPLES[0], { STREAM_HOLD_MS: String(holdMs) })
    t.teardown(a.close)
    const whole = JSON.stringify(await a.ponte.appointments.list(LONG, undefined))
    const listed = await a.ponte.appointments.listOrStream(LONG, undefined)
    if (Array.isArray(listed)) throw new Error('the sample\'s 92 days are streamed')
    // Nobody reads the stream (a client that stopped reading); another request needs the database.
    const other = a.get('/appointments?start=2026-11-27&end=2026-11-27&minimal=true')
    const first = await Promise.race([other.then((r) => r.status), sleep(1500)])
    if (served) t.equal(first, 200, `hold ${holdMs} ms: the other request is served while the list waits for its client`)
    else t.equal(first, 'slept', `hold ${holdMs} ms: the other request waits behind the list (what the bound prevents)`)
    t.equal(await text(listed), whole, `hold ${holdMs} ms: the list's bytes are the whole list's`)
    t.equal((await other).status, 200)
  }
})

tap.test('holdingAtMost: blocks in order, then the source\'s end or error, the source released early', async (t) => {
  let released = false
  async function * source (fail: boolean): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 5; i++) { await sleep(2); yield i }
      if (fail) throw new Error('gone')
    } finally { released = true }
  }
  const it = holdingAtMost(source(false), 10)[Symbol.asyncIterator]()
  t.same(await it.next(), { value: 0, done: false })
  await sleep(60)
  t.ok(released, 'read to its end while the consumer waited')
  const rest: number[] = []
  for (let r = await it.next(); r.done !== true; r = await it.next()) rest.push(r.value)
  t.same(rest, [1, 2, 3, 4])

  released = false
  const failing = holdingAtMost(source(true), 10)[Symbol.asyncIterator]()
  await failing.next()
  await sleep(60)
  const seen: number[] = []
  await t.rejects(async () => { for (let r = await failing.next(); r.done !== true; r = await failing.next()) seen.push(r.value) }, /gone/)
  t.same(seen, [1, 2, 3, 4], 'the blocks read before the error come first')

  released = false
  const quick = holdingAtMost(source(false), 60_000)[Symbol.asyncIterator]()
  await quick.next()
  await quick.return?.()
  t.ok(released, 'left early: the source is released at once')
})

tap.test('holdingAtMost past the hold: a client keeping up gets each block as it is read; one leaving stops the read', async (t) => {
  let produced = 0
  let released = false
  async function * slow (): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 10; i++) { await sleep(20); produced = i + 1; yield i }
    } finally { released = true }
  }
  const it = holdingAtMost(slow(), 30)[Symbol.asyncIterator]()
  const seenWhileReading: boolean[] = []
  for (let r = await it.next(); r.done !== true; r = await it.next()) seenWhileReading.push(!released)
  t.equal(seenWhileReading.length, 10, 'every block')
  t.ok(seenWhileReading.slice(0, 8).every(Boolean), 'blocks came as they were read, not all at the end')

  produced = 0
  released = false
  const leaving = holdingAtMost(slow(), 30)[Symbol.asyncIterator]()
  await leaving.next()
  await sleep(70) // past the hold: reading ahead
  await leaving.return?.()
  t.ok(released, 'the source is released when the consumer leaves')
  t.ok(produced < 10, `the read stopped (${produced} of 10 blocks read)`)
})
