// Issue 12: one door into the compiler. compileMapping (src/mapping/compile/index.ts) builds
// the whole compiled installation; services and `ponte check` read plans from it and import
// nothing else of the compiler, and the compiler depends on no service. This keeps both rules
// true: an import across either line fails, named by file and what it imports.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const DOOR = 'src/mapping/compile/index.ts'

interface Source { file: string, text: string }

/** Every module a file imports or re-exports (static, dynamic, type-only alike; comments ignored), as a path from the root. */
function importsOf (s: Source): string[] {
  return ts.preProcessFile(s.text, true, true).importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(root, resolve(root, dirname(s.file), spec)).split('\\').join('/').replace(/\.js$/, '.ts'))
}

/** Where a file crosses the compiler's line: `file: imports target (why)`. */
export function crossings (sources: Source[]): string[] {
  const found: string[] = []
  for (const s of sources) {
    for (const target of importsOf(s)) {
      if (s.file.startsWith('src/mapping/') && target.startsWith('src/services/')) {
        found.push(`${s.file}: imports ${target} (the compiler depends on no service)`)
      }
      if ((s.file.startsWith('src/check/') || s.file.startsWith('src/services/')) && target.startsWith('src/mapping/compile/') && target !== DOOR) {
        found.push(`${s.file}: imports ${target} (only ${DOOR} is the compiler's door)`)
      }
    }
  }
  return found
}

function sourceFiles (dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') ? [{ file: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }] : []
  })
}

t.test('the scanner finds each kind of crossing, and nothing in comments or through the door', async (t) => {
  const planted: Source[] = [
    { file: 'src/mapping/compile/key.ts', text: "import { carryingId } from '../../services/ids.js'" },
    { file: 'src/mapping/model.ts', text: "export { x } from '../services/slots.js'" },
    { file: 'src/check/data.ts', text: "import type { Scope } from '../mapping/compile/scope.js'\n// import { valueSql } from '../mapping/compile/value.js'" },
    { file: 'src/services/booking.ts', text: "const m = await import('../mapping/compile/writes.js')" },
    { file: 'src/services/clients.ts', text: "import type { CompiledMapping } from '../mapping/compile/index.js'\nimport { SEARCH_CANDIDATES } from '../mapping/compile/index.js'" },
    { file: 'src/check/probes.ts', text: "import type { MappingModel } from '../mapping/model.js'\nimport type { Statement } from '../sql/statement.js'" },
    { file: 'src/toolkit/init.ts', text: "import { Scope } from '../mapping/compile/scope.js'" }
  ]
  t.same(crossings(planted), [
    'src/mapping/compile/key.ts: imports src/services/ids.ts (the compiler depends on no service)',
    'src/mapping/model.ts: imports src/services/slots.ts (the compiler depends on no service)',
    `src/check/data.ts: imports src/mapping/compile/scope.ts (only ${DOOR} is the compiler's door)`,
    `src/services/booking.ts: imports src/mapping/compile/writes.ts (only ${DOOR} is the compiler's door)`
  ])
})

t.test('no import crosses the compiler\'s line in src/', async (t) => {
  t.same(crossings(sourceFiles(join(root, 'src'))), [], 'services and check read plans from the entry point; the compiler imports no service')
})
