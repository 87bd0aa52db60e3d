// Hostile cases on the process: mappings that cannot be loaded, an unbounded installation
// name, a port in use, and the signals docs/operations.md says `npm start` passes on.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { outcome, type Case, type Probe } from './case.js'
import { freePort, ROOT, SAMPLE_MAPPING, sleep } from './target.js'

interface Run { code: number | null, stderr: string, port: number, ms: number }

/** Starts Ponte with `env` over the probe's own and waits for it to exit (or `ms`), then stops it. */
async function startOnce (p: Probe, env: Record<string, string>, ms = 30_000, port?: number): Promise<Run> {
  const use = port ?? await freePort()
  const began = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env: p.t.env({ PORT: String(use), ...env }), stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const code = await new Promise<number | null>(resolve => {
    const timer = setTimeout(() => resolve(null), ms)
    child.once('exit', c => { clearTimeout(timer); resolve(c) })
  })
  if (code === null) child.kill('SIGKILL')
  return { code, stderr, port: use, ms: performance.now() - began }
}

function oneLine (r: Run): boolean {
  const lines = r.stderr.split('\n').filter(l => l.trim() !== '')
  return r.code === 1 && lines.length === 1 && !/\n\s+at /.test(r.stderr)
}

async function portOpen (port: number): Promise<boolean> {
  return await new Promise(resolve => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => resolve(false))
  })
}

function alive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}

/** `npm start` served, then `signal` sent to npm itself: the server must not outlive it on its port. */
async function npmSignal (p: Probe, signal: NodeJS.Signals): Promise<ReturnType<typeof outcome>> {
  const port = await freePort()
  const pidFile = `${p.t.dir}/npm-${signal}.pid`
  const npm = spawn('npm', ['start'], { cwd: ROOT, env: p.t.env({ PORT: String(port), PID_FILE: pidFile }), stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  npm.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  // The pid file is written once the server listens.
  let server = 0
  const until = Date.now() + 90_000
  while (Date.now() < until && server === 0 && npm.exitCode === null) {
    try { server = Number(readFileSync(pidFile, 'utf8').trim()) } catch { await sleep(200) }
  }
  if (server === 0) { npm.kill('SIGKILL'); return outcome({ served: false }, `npm start did not serve: ${stderr.trim().slice(0, 200)}`) }
  const listening = await portOpen(port)
  npm.kill(signal)
  let closed = false
  for (let i = 0; i < 50 && !closed; i++) { await sleep(100); closed = !await portOpen(port) && (server === 0 || !alive(server)) }
  if (!closed && server > 0) process.kill(server, 'SIGKILL')
  return outcome({ served: listening, 'server gone, port closed within 5 s': closed }, `server pid ${server}, ${closed ? 'gone' : 'still running'}`)
}

export const processCases: Case[] = [
  {
    name: 'YAML alias bomb as the mapping',
    expects: 'a billion-laughs mapping: one line on stderr naming the file, exit 1, no stack, within 30 s',
    keptBy: 'test/system/process/start-failures.test.ts',
    run: async (p) => {
      const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      for (let i = 1; i < 10; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`)
      const file = p.t.mappingFile('bomb.yaml', `version: 1\n${levels.join('\n')}\ninstallation: *j\n`)
      const r = await startOnce(p, { MAPPING: file })
      return outcome({ 'one line, exit 1': oneLine(r), 'names the file': r.stderr.includes('bomb.yaml') }, `exit ${r.code} in ${Math.round(r.ms)} ms: ${r.stderr.trim().slice(0, 120)}`)
    }
  },
  {
    name: '10 MB installation name',
    expects: 'a mapping whose installation is 10 MB of text: refused in one line with exit 1, or served with /ready under 64 KB',
    keptBy: 'test/system/process/start-failures.test.ts',
    run: async (p) => {
      const text = readFileSync(SAMPLE_MAPPING, 'utf8').replace('installation: clinica-sorriso', `installation: ${'x'.repeat(10 << 20)}`)
      const file = p.t.mappingFile('huge.yaml', text)
      const r = await startOnce(p, { MAPPING: file }, 30_000)
      if (r.code !== null) return outcome({ 'one line, exit 1': oneLine(r) }, `exit ${r.code}: ${r.stderr.trim().slice(0, 120)}`)
      return outcome({ 'refused or bounded': false }, 'still running after 30 s (not refused)')
    }
  },
  {
    name: 'a mapping that is not YAML',
    expects: 'a mapping file of binary bytes: one line naming the file, exit 1',
    keptBy: 'test/system/process/start-failures.test.ts',
    run: async (p) => {
      const file = p.t.mappingFile('binary.yaml', '\u0000\u0001\u0002: [\n\t{{{')
      const r = await startOnce(p, { MAPPING: file })
      return outcome({ 'one line, exit 1': oneLine(r), 'names the file': r.stderr.includes('binary.yaml') }, `exit ${r.code}: ${r.stderr.trim().slice(0, 120)}`)
    }
  },
  {
    name: 'port in use',
    expects: 'a second Ponte on the port the first serves: one line naming the port, exit 1',
    keptBy: 'test/system/process/start-failures.test.ts',
    run: async (p) => {
      const r = await startOnce(p, {}, 90_000, p.t.port)
      return outcome({ 'one line, exit 1': oneLine(r), 'names the port': r.stderr.includes(String(p.t.port)) && /in use/.test(r.stderr) }, `exit ${r.code} after ${Math.round(r.ms)} ms: ${r.stderr.trim().slice(0, 120)}`)
    }
  },
  {
    name: 'SIGTERM to npm start',
    expects: 'SIGTERM sent to the npm process of `npm start`: the server exits too and the port is free within 5 s',
    keptBy: 'test/system/process/shutdown.test.ts',
    run: async (p) => await npmSignal(p, 'SIGTERM')
  },
  {
    name: 'SIGHUP to npm start',
    expects: 'SIGHUP (as for a reload) sent to the npm process: the server does not stay orphaned on its port (gone within 5 s)',
    keptBy: 'test/system/process/npm-signals.test.ts',
    run: async (p) => await npmSignal(p, 'SIGHUP')
  }
]
