// A start that cannot go on says why in one line on stderr and exits 1, whichever command
// started it: a mapping that cannot be loaded (a YAML alias bomb, a file far too large), a
// port already taken. No stack trace, no library internals.
import t, { type Test } from 'tap'
import net from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../helpers/server-process.js'
import { exited, start, type Started } from '../../helpers/processes.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-start-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

// Nine aliases of nine aliases, seven deep: 9^7 nodes once expanded.
const BOMB = join(dir, 'bomb.yaml')
writeFileSync(BOMB, ['version: 1', 'installation: bomb', 'a0: &a0 [x, x, x, x, x, x, x, x, x]',
  ...[1, 2, 3, 4, 5, 6].map((n) => `a${n}: &a${n} [${Array(9).fill(`*a${n - 1}`).join(', ')}]`)].join('\n') + '\n')
const HUGE = join(dir, 'huge.yaml')
writeFileSync(HUGE, 'version: 1\ninstallation: huge\n' + `# ${'x'.repeat(98)}\n`.repeat(20_000))

const STACK = /\n\s+at /

async function failed (t: Test, proc: Started): Promise<void> {
  t.equal(await exited(proc, 60_000), 1, 'exit code 1', { output: proc.output() })
  t.notMatch(proc.output(), STACK, 'no stack trace')
}

// What `npm start` and `npx ponte serve` run.
const servers = [['--import', 'tsx', 'src/server.ts'], ['bin/ponte.js', 'serve']]

t.test('a YAML alias bomb as the mapping: one line naming the file, exit 1', async (t) => {
  for (const args of servers) {
    const proc = start(process.execPath, args, await freePort(), { MAPPING: BOMB, DATABASE_URL: `sqlite:${join(dir, 'none.db')}` })
    await failed(t, proc)
    t.match(proc.stderr(), /^\S*bomb\.yaml: \/: cannot be read: .*alias.*\n$/i, `${args.join(' ')}: one line on stderr`)
  }
  const check = start(process.execPath, ['bin/ponte.js', 'check', '-m', BOMB, '-d', `sqlite:${join(dir, 'none.db')}`], await freePort())
  await failed(t, check)
  t.match(check.stderr(), /^\S*bomb\.yaml: \/: cannot be read: .*alias.*\n$/i, 'ponte check: the same line')

  // Without DATABASE_URL: the mapping is read before any sample database is looked for.
  const npm = start('npm', ['start'], await freePort(), { MAPPING: BOMB })
  await failed(t, npm)
  t.match(npm.stderr(), /^\S*bomb\.yaml: \/: cannot be read: .*alias.*$/im, 'npm start: the same line')
})

t.test('a mapping file over 1 MB is refused unread: one line, exit 1', async (t) => {
  const proc = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], await freePort(), { MAPPING: HUGE, DATABASE_URL: `sqlite:${join(dir, 'none.db')}` })
  await failed(t, proc)
  t.match(proc.stderr(), /^\S*huge\.yaml: \/: [\d.]+ MB, more than a mapping may be \(1 MB\)[^\n]*\n$/)
})

t.test('a mapping that is not YAML: one line naming the file and place, exit 1', async (t) => {
  const garbage = join(dir, 'garbage.yaml')
  writeFileSync(garbage, '\u0000\u0001\u0002: [\n\t{{{')
  const proc = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], await freePort(), { MAPPING: garbage, DATABASE_URL: `sqlite:${join(dir, 'none.db')}` })
  await failed(t, proc)
  t.match(proc.stderr(), /^\S*garbage\.yaml:\d+:\d+: [^\n]*\n$/, 'one line on stderr, at its line and column')
})

t.test('a port in use: one line naming it, exit 1', async (t) => {
  const port = await freePort()
  const taken = net.createServer()
  await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve))
  t.teardown(() => { taken.close() })
  const proc = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], port)
  await failed(t, proc)
  t.equal(proc.stderr(), `Ponte could not start: port ${port} on 127.0.0.1 is in use (EADDRINUSE)\n`)
})
