// Ids from callers are matched in their canonical form only (the canon itself, matchesType and
// bindId, is the compiler's: src/mapping/compile/ids.ts). What is left here is the services'
// side: keeping only the rows that carry exactly the requested id.

/**
 * What the database returned for an id, kept only where it carries exactly that id. The SQL
 * stays `column = @id`, which seeks the index; but SQL Server's `=` ignores trailing spaces
 * and, under the usual collations, case, so there 'cln-01' finds CLN-01 while SQLite finds
 * nothing. Every by-id read and id filter passes its rows through here, so both agree.
 */
export function carryingId<T> (found: T[], id: string, idOf: (item: T) => string | undefined): T[] {
  return found.filter((item) => idOf(item) === id)
}
