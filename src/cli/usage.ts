// What every command shares: the errors that set the exit code, the common options, and
// opening an installation for a command that reads the live database.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { Option } from 'commander'
import { loadMapping, openInstallation, openSample, sampleFixture, type Installation } from '../installation.js'
import { MappingError } from '../mapping/errors.js'
import { SAMPLE_MAPPING } from '../config.js'

/** Usage mistakes: one line, exit 2. */
export class UsageError extends Error {}
/** The database cannot be reached: exit 2, so a script can tell it from a mapping with problems. */
export class UnreachableError extends Error {}

/** What a command found: `done(1)` when it found problems; main returns it as the exit code. */
export type Done = (code: number) => void

export const mappingOption = (): Option => new Option('-m, --mapping <file>', 'the mapping file (default: $MAPPING, else the bundled sample)')
export const databaseOption = (): Option => new Option('-d, --db <url>', 'the clinic database (default: $DATABASE_URL, else a fresh copy of the sample)')
// Usage lines name an option as `--help` shows it, so the reader finds it there.
export const DB_FLAGS = databaseOption().flags

export function mappingPath (given?: string): string {
  return resolve(given ?? process.env.MAPPING ?? SAMPLE_MAPPING)
}

export async function open (mapping: string, url: string | undefined): Promise<Installation> {
  loadMapping(mapping) // a mistake in the file itself is reported as such (exit 1), before any database
  if (!url && !existsSync(sampleFixture(mapping))) throw new UsageError(`no database: give ${DB_FLAGS} or set DATABASE_URL`)
  try {
    return url ? await openInstallation(mapping, url, undefined, { structural: 'skip' }) : await openSample(mapping, { structural: 'skip' })
  } catch (err) {
    if (err instanceof MappingError) throw err
    throw new UnreachableError(`cannot open the database: ${(err as Error).message}`)
  }
}

export function baseUrl (given: string): URL {
  try { return new URL(given) } catch { throw new UsageError(`--base: "${given}" is not a URL`) }
}

export function dayOption (name: string, value: string | undefined): void {
  if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError(`${name}: "${value}" is not a date (YYYY-MM-DD)`)
}

export function positiveSeconds (name: string) {
  return (value: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new UsageError(`${name}: "${value}" is not a number of seconds`)
    return Number(value)
  }
}

export function positiveInt (name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name}: "${value}" is not a whole number of seconds`)
    return Number(value)
  }
}
