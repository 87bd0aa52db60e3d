// Ponte as production starts it (src/server.ts, `npm start`), in a child process on a real
// port: for tests of what only separate processes show (replicas sharing Redis, SIGHUP).
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { childEnv } from './child-env.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface ServerProcess {
  port: number
  child: ChildProcess
  /** Every log line so far (JSON lines parsed; others as { text }). */
  lines: () => any[]
  url: (path: string) => string
  stop: () => Promise<void>
}

export async function startServer (env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const out: string[] = []
  let stderr = ''
  child.stdout?.on('data', (c) => { out.push(String(c)) })
  child.stderr?.on('data', (c) => { stderr += String(c) })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ponte exited (${child.exitCode}): ${stderr}`)
    try { if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break } catch {}
    if (Date.now() - started > 40_000) { child.kill('SIGKILL'); throw new Error(`ponte did not start in 40 s: ${stderr}`) }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    port,
    child,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    lines: () => out.join('').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l) } catch { return { text: l } } }),
    async stop () {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
  }
}

/** Sends SIGHUP and waits for the reload's log line (ok or failed), which it returns. */
export async function hup (server: ServerProcess): Promise<any> {
  const before = server.lines().length
  server.child.kill('SIGHUP')
  for (let i = 0; i < 400; i++) {
    const line = server.lines().slice(before).find((l) => typeof l.msg === 'string' && /^mapping reload/.test(l.msg))
    if (line) return line
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('no reload line in 20 s')
}

/** A request to `server` with API key `key`: the status and the body, JSON parsed where it is JSON. */
export async function callServer (server: ServerProcess, key: string, method: string, path: string, body?: unknown): Promise<{ status: number, body: any }> {
  const r = await fetch(server.url(path), { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await r.text()
  let parsed: unknown = text
  try { parsed = JSON.parse(text) } catch {}
  return { status: r.status, body: parsed }
}
