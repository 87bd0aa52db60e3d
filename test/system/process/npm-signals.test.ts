// Signals as operators send them to the start commands the docs give. npm passes SIGINT and
// SIGTERM on to `npm start`'s server but not SIGHUP, and `npx` runs the command through a shell
// that passes on nothing: whatever ends npm must end the server too (no orphan on the port),
// and the process to send SIGHUP for a reload is the one PID_FILE names.
import t, { type Test } from 'tap'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '../../helpers/server-process.js'
import { alive, descendants, exited, start, survivors, waitForPort, type Started } from '../../helpers/processes.js'

const STARTUP_MS = 60_000

/** Started, listening, with every process below it noted; whatever is left at the end is killed. */
async function running (t: Test, command: string, args: string[], env: Record<string, string> = {}): Promise<{ proc: Started, port: number, tree: () => number[] }> {
  const port = await freePort()
  const proc = start(command, args, port, env)
  let tree: number[] = []
  t.teardown(() => { for (const p of [proc.pid as number, ...tree]) if (alive(p)) process.kill(p, 'SIGKILL') })
  t.ok(await waitForPort(port, true, STARTUP_MS), `${command} ${args.join(' ')}: the server listens`, { output: proc.output() })
  tree = descendants(proc.pid as number)
  return { proc, port, tree: () => tree }
}

t.test('SIGHUP to `npm start` (npm dies of it): the server stops too, nothing left on the port', async (t) => {
  const { proc, port, tree } = await running(t, 'npm', ['start'])
  t.ok(tree().length > 0, 'npm runs the server below it')
  proc.kill('SIGHUP')
  t.not(await exited(proc, 15_000), 'running', 'npm exits')
  t.ok(await waitForPort(port, false, 15_000), 'nothing listens on the port any more')
  t.same(await survivors(tree(), 15_000), [], 'no process started by npm is left running')
  t.match(proc.output(), /the parent process \(npm\) has exited/, 'the server said why it stopped')
})

t.test('SIGTERM to `npx ponte serve` (its shell dies of it): the server stops too, nothing left', async (t) => {
  const { proc, port, tree } = await running(t, 'npx', ['--yes', 'ponte', 'serve'])
  proc.kill('SIGTERM')
  t.not(await exited(proc, 15_000), 'running', 'npx exits')
  t.ok(await waitForPort(port, false, 15_000), 'nothing listens on the port any more')
  t.same(await survivors(tree(), 15_000), [], 'no process started by npx is left running')
})

t.test('`npm start` with PID_FILE: SIGHUP to that process reloads the mapping and it keeps serving', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-pid-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const pidFile = join(dir, 'ponte.pid')
  const { proc, port, tree } = await running(t, 'npm', ['start'], { PID_FILE: pidFile })
  // The file is written once the server listens, so just after the port opens.
  for (const until = Date.now() + 15_000; Date.now() < until && !existsSync(pidFile); await sleep(50));
  const pid = Number(readFileSync(pidFile, 'utf8').trim())
  t.ok(tree().includes(pid) && pid !== proc.pid, `PID_FILE names the server (${pid}), below npm (${proc.pid})`)

  process.kill(pid, 'SIGHUP')
  for (const until = Date.now() + 30_000; Date.now() < until && !/mapping reloaded/.test(proc.output()); await sleep(100));
  t.match(proc.output(), /"msg":"mapping reloaded"/, 'the mapping was reloaded')
  t.equal((await fetch(`http://127.0.0.1:${port}/ready`)).status, 200, 'and the server still serves')
  t.equal(await exited(proc, 0), 'running', 'npm is still running')

  proc.kill('SIGTERM')
  t.not(await exited(proc, 15_000), 'running', 'SIGTERM to npm stops it')
  t.ok(await waitForPort(port, false, 15_000), 'nothing listens on the port any more')
  t.notOk(existsSync(pidFile), 'PID_FILE is removed at shutdown')
})
