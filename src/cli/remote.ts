// `ponte conformance` and `ponte replay`: commands that talk to a running installation over HTTP.
import { existsSync } from 'node:fs'
import type { Command } from 'commander'
import { runConformance } from '../toolkit/conformance/run.js'
import { replay } from '../toolkit/capture/replay.js'
import { httpSender } from '../toolkit/conformance/http.js'
import { baseUrl, UsageError, type Done } from './usage.js'

export function conformanceCommand (cli: Command, done: Done): void {
  cli.command('conformance')
    .description('run the interface contract checks against a running installation')
    .requiredOption('--base <url>', 'where it answers, e.g. http://localhost:3000')
    .requiredOption('--key <key>', 'an API key it accepts')
    .option('--writes', 'also create and change data (clients, bookings): only on a test copy')
    .option('--country <code>', 'the mapping\'s phone.defaultCountry, whose mobile a new client registers with (default: the country most stored phones have)')
    .option('--json', 'print the results as JSON')
    .action(async (o: { base: string, key: string, writes?: boolean, country?: string, json?: boolean }) => {
      const base = baseUrl(o.base)
      if (o.country !== undefined && !/^[A-Za-z]{2}$/.test(o.country)) throw new UsageError(`--country: "${o.country}" is not a two-letter country code`)
      const results = await runConformance({ base: base.toString().replace(/\/$/, ''), key: o.key, writes: o.writes === true, ...(o.country !== undefined ? { country: o.country } : {}) },
        o.json ? undefined : (line) => { process.stdout.write(line + '\n') })
      if (o.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n')
      done(results.failed === 0 ? 0 : 1)
    })
}

export function replayCommand (cli: Command, done: Done): void {
  cli.command('replay')
    .description('send a capture\'s requests (CAPTURE_DIR) again and show where the answers differ')
    .argument('<dir>', 'the capture folder')
    .requiredOption('--base <url>', 'where the installation to compare answers')
    .requiredOption('--key <key>', 'an API key it accepts')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, o: { base: string, key: string, json?: boolean }) => {
      const base = baseUrl(o.base)
      if (!existsSync(dir)) throw new UsageError(`${dir}: no such folder`)
      const result = await replay(dir, httpSender(base.origin, o.key), o.json ? undefined : (line) => { process.stdout.write(line + '\n') })
      if (o.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n')
      done(result.different === 0 ? 0 : 1)
    })
}
