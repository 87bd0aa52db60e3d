// `ponte fixtures load`: a fixture into the database a DATABASE_URL names, by each folder's load.ts.
import { resolve } from 'node:path'
import { readFixture } from '../fixtures/read.js'
import { createSqliteFromFixture } from '../sql/sqlite/load.js'
import { loadFixture as loadIntoMysql } from '../sql/mysql/load.js'
import { loadFixture as loadIntoPostgres } from '../sql/postgres/load.js'
import { parseSqliteUrl } from './connect.js'

/**
 * SQLite: the file is written afresh. A server: the database must exist and hold none of the
 * fixture's tables (a table already there is an error from the server, and nothing is replaced).
 * Returns what was written, for the command's message.
 */
export async function loadFixtureInto (url: string, fixturePath: string): Promise<string> {
  if (url.startsWith('sqlite:')) {
    const file = resolve(parseSqliteUrl(url).file)
    createSqliteFromFixture(fixturePath, file)
    return file
  }
  const fixture = readFixture(fixturePath)
  if (/^(mysql|mariadb):/.test(url)) await loadIntoMysql(fixture, url)
  else if (/^postgres(ql)?:/.test(url)) await loadIntoPostgres(fixture, url)
  else throw new Error(`fixtures load: cannot load into "${url.split(':')[0]}:" databases (sqlite:, mysql:, mariadb:, postgres:)`)
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}
