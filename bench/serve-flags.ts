// The node options `npm run serve` gives Ponte in production (package.json's `serve` script,
// their one home): the bench starts Ponte with exactly these, as its header promises.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const LOADERS = new Set(['--import', '--require'])

/** The `--…` options between `node` and the script in a `node [options] <script>` command line. */
export function nodeOptionsOf (commandLine: string): string[] {
  const words = commandLine.trim().split(/\s+/)
  const at = words.indexOf('node')
  if (at < 0) throw new Error(`no node in the command line ${JSON.stringify(commandLine)}`)
  const out: string[] = []
  const rest = words.slice(at + 1)
  for (let i = 0; i < rest.length && rest[i].startsWith('--'); i++) {
    // A module preloaded (`--import tsx`) is how the script runs, not a node option to compare.
    if (LOADERS.has(rest[i])) i++
    else out.push(rest[i])
  }
  return out
}

/** `npm run serve`'s node options, read from package.json. */
export function serveOptions (): string[] {
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> }
  return nodeOptionsOf(pkg.scripts.serve)
}
