// Whose turn it is on the one SQLite connection (src/sql/sqlite/turns.ts): reads run together,
// a transaction or a stream runs alone, each in the order asked, and nothing that fails can
// leave the connection taken for good.
import tap from 'tap'
import { Turns } from '../../../../src/sql/sqlite/turns.js'

/** A call that ends when told to, logging when it starts and ends. */
function gate (log: string[], name: string): { fn: () => Promise<string>, open: () => void } {
  let open!: () => void
  const ended = new Promise<void>((resolve) => { open = resolve })
  return { fn: async () => { log.push(`${name}+`); await ended; log.push(`${name}-`); return name }, open }
}
const tick = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

tap.test('reads share the connection; a transaction waits for the reads before it, and the reads after it wait for it', async (t) => {
  const turns = new Turns()
  const log: string[] = []
  const r1 = gate(log, 'r1')
  const r2 = gate(log, 'r2')
  const tx = gate(log, 'tx')
  const r3 = gate(log, 'r3')
  const p1 = turns.shared(r1.fn)
  const p2 = turns.shared(r2.fn)
  const pt = turns.exclusive(tx.fn)
  const p3 = turns.shared(r3.fn)
  await tick()
  t.same(log, ['r1+', 'r2+'], 'both reads started at once; the transaction and the later read wait')
  t.equal(turns.busy, 4, 'four calls hold or wait for the connection')
  r2.open(); await tick()
  t.same(log, ['r1+', 'r2+', 'r2-'], 'one read ended: the transaction still waits for the other')
  r1.open(); await tick()
  t.same(log.slice(3), ['r1-', 'tx+'], 'the last read before it ended: the transaction runs, alone')
  tx.open(); await tick(); await tick()
  t.same(log.slice(5), ['tx-', 'r3+'], 'the read asked for after it runs once it ended')
  r3.open()
  t.same(await Promise.all([p1, p2, pt, p3]), ['r1', 'r2', 'tx', 'r3'])
  t.equal(turns.busy, 0, 'nothing holds the connection')
})

tap.test('a failure hands the connection on', async (t) => {
  const turns = new Turns()
  await t.rejects(turns.exclusive(async () => { throw new Error('rolled back') }), /rolled back/)
  await t.rejects(turns.shared(() => { throw new Error('thrown before any await') }), /thrown before any await/)
  await t.rejects(turns.shared(async () => { throw new Error('a read failed') }), /a read failed/)
  // On an idle connection a transaction starts at once, before its first await: no read may
  // start beside it meanwhile.
  const log: string[] = []
  let inside: Promise<void> | undefined
  t.equal(await turns.exclusive(async () => {
    inside = turns.shared(async () => { log.push('read') })
    await tick()
    log.push('transaction')
    return 'next transaction'
  }), 'next transaction', 'a transaction after the failed reads gets its turn')
  await inside
  t.same(log, ['transaction', 'read'], 'a read asked inside a transaction begun at once waits for it')
  t.equal(await turns.shared(async () => 'read'), 'read')
  t.equal(turns.busy, 0)
})
