// Start-up time (spawn → first 200 from /health) and resident memory (after 50 requests) of
// Ponte compiled (`node dist/server.js`, after `npm run build`) and through tsx
// (`node --import tsx src/server.ts`), on the bundled sample. `node scripts/measure-start.mjs [runs]`
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

const runs = Number(process.argv[2] ?? 5)
const key = 'measure-key-0123456789abcdef'
const variants = { compiled: ['dist/server.js'], tsx: ['--import', 'tsx', 'src/server.ts'] }

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

async function once (args, port) {
  const started = performance.now()
  const child = spawn(process.execPath, args, { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'warn', IDEMPOTENCY_STORE: ':memory:' }, stdio: 'ignore' })
  try {
    for (;;) {
      try { if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break } catch {}
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (performance.now() - started > 30_000) throw new Error('did not start')
    }
    const ms = performance.now() - started
    for (let i = 0; i < 50; i++) await (await fetch(`http://127.0.0.1:${port}/professionals`, { headers: { authorization: `Bearer ${key}` } })).text()
    return { ms, rss: rssMb(child.pid) }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
for (const [name, args] of Object.entries(variants)) {
  const results = []
  for (let i = 0; i < runs; i++) results.push(await once(args, Number(process.env.PORT ?? 3203)))
  console.log(`${name}: start-up median ${median(results.map((r) => r.ms)).toFixed(0)} ms, RSS median ${median(results.map((r) => r.rss)).toFixed(0)} MB (${runs} runs)`)
}
