// The mapping of a small front-desk agenda the change-detection tests generate (the marker
// clinic, the desk and replica tests): a date and a text hour, one-letter state codes written
// back by `write.states`, keys by `max`, a `changes` block as each test needs it.
export interface DeskAgenda {
  installation: string
  zone: string
  /** The appointment table, its key, its day and hour columns, and its state column. */
  table: string
  key: string
  date: string
  hour: string
  state: string
  /** The stored codes of WAITING, CONFIRMED and CANCELED. */
  codes: [string, string, string]
  /** More of the appointment, as YAML lines indented four spaces (`refs`, `classification`). */
  more?: string[]
  /** What goes under `changes:`, one line each (none: no `changes`). */
  changes?: string[]
  /** The client's table, key and name column, and more lines of it (`phones`). */
  client: { table: string, key: string, name: string, more?: string[] }
  professional?: { table: string, key: string, name: string }
}

export function deskMapping (a: DeskAgenda): string {
  const [waiting, confirmed, canceled] = a.codes
  return [
    'version: 1',
    `installation: ${a.installation}`,
    `timezone: ${a.zone}`,
    'states:',
    '  values: [WAITING, CONFIRMED, CANCELED]',
    'resources:',
    '  appointment:',
    `    table: ${a.table}`,
    `    key: ${a.key}`,
    '    start:',
    `      date: { column: ${a.date}, format: date }`,
    `      hour: { column: ${a.hour}, format: text }`,
    `    state: { column: ${a.state}, map: { ${waiting}: WAITING, ${confirmed}: CONFIRMED, ${canceled}: CANCELED } }`,
    ...a.more ?? [],
    '    write:',
    '      key: { generate: max }',
    '      states:',
    `        WAITING: { ${a.state}: { value: ${waiting} } }`,
    `        CONFIRMED: { ${a.state}: { value: ${confirmed} } }`,
    `        CANCELED: { ${a.state}: { value: ${canceled} } }`,
    ...a.changes ? ['    changes:', ...a.changes.map((l) => `      ${l}`)] : [],
    '  client:',
    `    table: ${a.client.table}`,
    `    key: ${a.client.key}`,
    `    fields: { name: ${a.client.name} }`,
    ...a.client.more ?? [],
    ...a.professional ? ['  professional:', `    table: ${a.professional.table}`, `    key: ${a.professional.key}`, `    fields: { name: ${a.professional.name} }`] : [],
    ''
  ].join('\n')
}
