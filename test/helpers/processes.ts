// Real processes for tests of start-up, signals and shutdown: a start command run as a
// supervisor would (npm start, npx ponte serve, node src/server.ts), its output, its process
// tree (Linux /proc), and its port.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { TEST_KEY } from './app.js'
import { childEnv } from './child-env.js'

export const ROOT = new URL('../..', import.meta.url).pathname

export type Started = ChildProcess & { output: () => string, stderr: () => string }

/** `command args…` in the checkout, serving the sample on 127.0.0.1:`port` with the test key. */
export function start (command: string, args: string[], port: number, env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: childEnv({ PORT: String(port), HOST: '127.0.0.1', API_KEYS: TEST_KEY, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { output += d.toString(); stderr += d.toString() })
  return Object.assign(child, { output: () => output, stderr: () => stderr })
}

export async function canConnect (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => { resolve(false) })
  })
}

/** Polls until the port is in the wanted state; false if it never got there within `ms`. */
export async function waitForPort (port: number, open: boolean, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(100)) {
    if (await canConnect(port) === open) return true
  }
  return false
}

/** Every process below `pid` (Linux /proc), so a test can tell whether any outlives it. */
export function descendants (pid: number): number[] {
  const parent = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch { /* gone meanwhile */ }
  }
  const below = (p: number): number[] => [...parent].filter(([, pp]) => pp === p).flatMap(([c]) => [c, ...below(c)])
  return below(pid)
}

export function alive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}

/** Waits up to `ms` for every one of `pids` to exit; those still running then. */
export async function survivors (pids: number[], ms: number): Promise<number[]> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(100)) {
    if (!pids.some(alive)) return []
  }
  return pids.filter(alive)
}

/** The exit code once the child has exited (null: by a signal), or 'running' after `ms`. */
export async function exited (child: ChildProcess, ms: number): Promise<number | null | 'running'> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
  return await Promise.race([
    new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
    sleep(ms).then(() => 'running' as const)
  ])
}
