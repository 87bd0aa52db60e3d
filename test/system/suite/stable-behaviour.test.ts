// Issue 26: the server rests only on behaviour its libraries document. Each pattern below is a
// way of leaning on what an owner calls unstable, and any of them in src/ code fails here, by
// file:line. Comments may name them (to say why not).
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))

const UNSTABLE: Array<[what: string, pattern: RegExp]> = [
  // sqlite.org: EXPLAIN QUERY PLAN's output is for people, its format may change in any release.
  ['EXPLAIN QUERY PLAN parsed', /EXPLAIN\s+QUERY\s+PLAN/i],
  ['code generated at run time', /\bnew\s+Function\b|(?<![\w.])(?:Function|eval)\s*\(/],
  // Node: V8 options have no stability guarantee; given on the command line, operators see them.
  ['V8 flags set in-process', /setFlagsFromString|from\s+['"](?:node:)?v8['"]/],
  // prom-client's metric interface as its registry reads it, not its public API.
  ['prom-client internals', /getForPromString|\baggregator\b/]
]

/** The code of a TypeScript file with its comments blanked (lines kept, so numbers stay right). */
function codeOf (source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
}

function filesUnder (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(?:ts|js|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

t.test('no code in src/ leans on behaviour its owner calls unstable', async (t) => {
  const found: string[] = []
  for (const file of filesUnder(join(root, 'src'))) {
    const path = relative(root, file)
    codeOf(readFileSync(file, 'utf8')).split('\n').forEach((line, i) => {
      for (const [what, pattern] of UNSTABLE) if (pattern.test(line)) found.push(`${path}:${i + 1}: ${what}`)
    })
  }
  t.same(found, [], 'none found')
})

t.test('the patterns find what they are for', async (t) => {
  const hits = (code: string): string[] => UNSTABLE.filter(([, p]) => p.test(codeOf(code))).map(([what]) => what)
  // eslint-disable-next-line no-template-curly-in-string -- source text the scan reads
  t.same(hits('db.prepare(`EXPLAIN QUERY PLAN ${sql}`)'), ['EXPLAIN QUERY PLAN parsed'])
  t.same(hits("const f = new Function('v', 'return v')"), ['code generated at run time'])
  t.same(hits("import { setFlagsFromString } from 'node:v8'"), ['V8 flags set in-process'])
  t.same(hits('async getForPromString () {}'), ['prom-client internals'])
  t.same(hits('// new Function and EXPLAIN QUERY PLAN, named in a comment'), [])
  t.same(hits("const url = 'http://x' // setFlagsFromString"), [])
  t.same(hits('const fn = makeFunction(x); type F = Function; await redis.eval(LUA, 1, k)'), [])
  t.same(hits('eval(text)'), ['code generated at run time'])
})

// Node options the server runs with sit on its command line, where operators see them, and only
// those Node documents in its CLI reference (doc/api/cli.md); the same everywhere it starts.
const DOCUMENTED_NODE_OPTIONS = new Set(['--max-semi-space-size', '--max-old-space-size'])

t.test('npm start, npm run serve and the Docker image give node the same documented options', async (t) => {
  const { nodeOptionsOf, serveOptions } = await import('../../../bench/serve-flags.js')
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  const cmd = readFileSync(join(root, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.startsWith('CMD ')).at(-1) ?? ''
  const docker = nodeOptionsOf((JSON.parse(cmd.slice(4)) as string[]).join(' '))
  const start = nodeOptionsOf(scripts.start)
  const serve = serveOptions()
  t.same(start, serve, 'npm start as npm run serve (besides loading tsx)')
  t.same(docker, serve, 'the image as npm run serve')
  for (const o of serve) t.ok(DOCUMENTED_NODE_OPTIONS.has(o.split('=')[0]), `${o} is documented by Node`)
  t.same(nodeOptionsOf('exec node --max-semi-space-size=64 --import tsx src/server.ts'), ['--max-semi-space-size=64'], 'a preloaded module is not an option; options end at the script')
})
