// `ponte <command>`: the clinic-IT toolkit around the server (commander; `ponte help <command>`).
// One file per command under cli/. Exit codes, for scripts: 0 done / clean, 1 problems found
// (or the command failed), 2 wrong usage or the database cannot be reached.
import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
import { MappingError } from './mapping/errors.js'
import { checkCommand } from './cli/check.js'
import { explainCommand, schemaCommand } from './cli/mapping.js'
import { conformanceCommand, replayCommand } from './cli/remote.js'
import { initCommand } from './cli/init.js'
import { fixturesCommand } from './cli/fixtures.js'
import { webhooksCommand } from './cli/webhooks.js'
import { UnreachableError, UsageError, type Done } from './cli/usage.js'

// The package's own version: package.json is one folder up from src/ and from dist/ alike.
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version

/** `done(code)`: what the command found (1: problems); main returns it as the exit code. */
export function program (done: Done = () => {}): Command {
  const cli = new Command('ponte')
    .description('Ponte: the Scheduling Integration Interface over a clinic\'s legacy SQL database')
    .version(VERSION, '-V, --version', 'print the version of Ponte')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`${text.trim().replace(/^error: /, 'ponte: ')} (see ponte --help)\n`) })

  cli.command('serve')
    .description('start the HTTP server (same as npm start; configured by the environment)')
    .action(async () => { await import('./server.js'); return await new Promise<never>(() => {}) })
  checkCommand(cli, done)
  explainCommand(cli)
  schemaCommand(cli)
  conformanceCommand(cli, done)
  initCommand(cli)
  replayCommand(cli, done)
  fixturesCommand(cli)
  webhooksCommand(cli, done)
  return cli
}

export async function main (argv: string[]): Promise<number> {
  let code = 0
  const cli = program((c) => { code = c })
  try {
    await cli.parseAsync(argv, { from: 'user' })
    return code
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help, `help` and --version are not errors; commander already printed what was asked.
      // Help shown because no command was given (exit code 1 from commander) is wrong usage.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0
      if (err.code === 'commander.help') return err.exitCode === 0 ? 0 : 2
      return 2
    }
    if (err instanceof UsageError || err instanceof UnreachableError) {
      process.stderr.write(`ponte: ${err.message}\n`)
      return 2
    }
    if (err instanceof MappingError) {
      process.stderr.write(`${err.message}\n`)
      return 1
    }
    process.stderr.write(`ponte: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}

if (process.argv[1] && /cli\.[jt]s$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code }, () => { process.exitCode = 1 })
}
