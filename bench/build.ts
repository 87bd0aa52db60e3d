// The bench runs both servers as production does: compiled JavaScript on plain node, no
// TypeScript loader (tsx adds its own resolver, source maps and ~70 MB resident to a process).
// Each run compiles afresh into scratch folders of its own (two benches at once, as the test
// suite runs them, must not rebuild under each other), so a stale dist/ is never measured.
//  - Ponte exactly as `npm run build` lays it out (tsconfig.build.json), one level below the
//    package root so the mappings and fixtures resolve as they do from dist/.
//  - the baseline with the few src/ modules it shares (bench/tsconfig.baseline.json).
import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

const OUT = { ponte: `.scratch-bench-ponte-${process.pid}`, hand: `.scratch-bench-hand-${process.pid}` }

export const BUILT = {
  ponte: join(root, OUT.ponte, 'server.js'),
  hand: join(root, OUT.hand, 'bench', 'baseline-server.js')
}

async function compile (project: string, outDir: string): Promise<void> {
  rmSync(join(root, outDir), { recursive: true, force: true })
  await promisify(execFile)(process.execPath, [tsc, '-p', project, '--outDir', outDir, '--sourceMap', 'false', '--noCheck'], { cwd: root })
}

export async function buildServers (): Promise<void> {
  process.once('exit', () => { for (const dir of Object.values(OUT)) rmSync(join(root, dir), { recursive: true, force: true }) })
  await Promise.all([
    compile('tsconfig.build.json', OUT.ponte),
    compile('bench/tsconfig.baseline.json', OUT.hand)
  ])
}
