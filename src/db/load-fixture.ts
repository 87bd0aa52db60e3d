// `ponte fixtures load`: a fixture into the database a URL names, by its folder's load.ts.
import { readFixture } from '../fixtures/read.js'
import { databaseOf, schemeList } from '../sql/databases.js'

/** The schemes of the databases a fixture loads into, for help. */
export const LOADABLE_SCHEMES = schemeList((kind) => kind.loadFixture !== undefined)

/** Why no fixture can be loaded where a URL points; undefined when one can. */
export function cannotLoadInto (url: string): string | undefined {
  if (databaseOf(url)?.kind.loadFixture !== undefined) return undefined
  return `fixtures load: cannot load into "${url.split(':')[0]}:" databases (use ${LOADABLE_SCHEMES})`
}

/**
 * SQLite: the file is written afresh. A server: the database must exist and hold none of the
 * fixture's tables (a table already there is an error from the server, and nothing is replaced).
 * Returns what was written, for the command's message.
 */
export async function loadFixtureInto (url: string, fixturePath: string): Promise<string> {
  const load = databaseOf(url)?.kind.loadFixture
  if (load === undefined) throw new Error(cannotLoadInto(url))
  return await load(readFixture(fixturePath), url)
}
