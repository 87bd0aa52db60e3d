// Whether the database refused a write because the login may only read: `check` then says
// writes were not proven (a warning) instead of failing on the first probe.
// How SQLite, PostgreSQL (a role or a read-only transaction), MariaDB/MySQL and SQL Server say it.
const READ_ONLY = /readonly database|read-only|read only|permission denied|command denied|permission was denied/i

export function refusedAsReadOnly (err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (READ_ONLY.test(e.message)) return true
  return false
}
