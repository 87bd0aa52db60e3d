// A small Lisbon dental schema with the traits a stranger met going live on "AgendaPro": UTC
// storage, open slot rows reopened on cancel, birth dates kept as DD.MM.YYYY text, phones in
// key/value contact rows (Portuguese spellings and a British number in a reserved range), a
// Portuguese NIF, and a client whose own booking clashes with the write probe's first move.
import type { TestDialect } from './app.js'

/** The day `check` is run as, and the day after it, whose slots the probe books. */
export const TODAY = '2031-03-03'
export const DAY = '2031-03-04'

export interface AgendaProTraits {
  /** Clients 2 to 4 too (else client 1 alone, so every move the probe tries clashes). */
  manyClients?: boolean
}

export function agendaproSchema (dialect: TestDialect, traits: AgendaProTraits = {}): string {
  const stamp = dialect === 'postgres' ? 'TIMESTAMP' : 'DATETIME'
  const slot = (id: number, clin: string, hour: string, person: string, st: string): string =>
    `INSERT INTO slot (slot_id, clin_code, start_utc, grid, person_no, st) VALUES (${id}, '${clin}', '${DAY} ${hour}:00', 'XXX', ${person}, '${st}');`
  const person = (no: number, given: string, family: string, born: string, nif: string): string =>
    `INSERT INTO person (person_no, given, family, born, nif, created_utc) VALUES (${no}, '${given}', '${family}', '${born}', ${nif}, '2030-01-01 10:00:00');`
  const contact = (no: number, kind: string, value: string): string => `INSERT INTO person_contact (person_no, kind, value) VALUES (${no}, '${kind}', '${value}');`
  const more = traits.manyClients
    ? [
        person(2, 'João', 'Costa', '17.11.1972', "'234567890'"), contact(2, 'MOB', '936-555-123'),
        person(3, 'Emily', 'Clarke', '29.02.1996', 'NULL'), contact(3, 'MOB', '+44 7700 900123'),
        person(4, 'Luís', 'Martins', '01.01.1960', "'345678901'"), contact(4, 'MOB', '12345')
      ]
    : []
  return `
CREATE TABLE clinician (clin_code VARCHAR(4) PRIMARY KEY, display VARCHAR(60) NOT NULL, active CHAR(1) NOT NULL);
CREATE TABLE person (person_no INTEGER PRIMARY KEY, given VARCHAR(40) NOT NULL, family VARCHAR(40) NOT NULL, born VARCHAR(10), nif VARCHAR(12), created_utc ${stamp} NOT NULL);
CREATE TABLE person_contact (person_no INTEGER NOT NULL, kind VARCHAR(4) NOT NULL, value VARCHAR(40) NOT NULL);
CREATE TABLE slot (slot_id INTEGER PRIMARY KEY, clin_code VARCHAR(4) NOT NULL, start_utc ${stamp} NOT NULL, grid VARCHAR(12) NOT NULL, person_no INTEGER, st CHAR(1) NOT NULL);
INSERT INTO clinician (clin_code, display, active) VALUES ('RS', 'Dr. Rui Sousa', 'Y');
INSERT INTO clinician (clin_code, display, active) VALUES ('MA', 'Dr. Miguel Antunes', 'Y');
${person(1, 'Ana', 'Ferreira', '03.04.1985', "'123456789'")}
${contact(1, 'MOB', '912 345 678')}
${contact(1, 'MAIL', 'ana.f@example.pt')}
${more.join('\n')}
${slot(1, 'RS', '09:00', 'NULL', 'o')}
${slot(2, 'RS', '09:30', 'NULL', 'o')}
${slot(3, 'RS', '10:00', 'NULL', 'o')}
${slot(4, 'MA', '09:30', '1', 'b')}
${slot(5, 'MA', '10:00', '1', 'b')}
`
}

export interface AgendaProMapping {
  /** The birthday value (default `{ column: born, format: dmy }`). */
  birthday?: string
  /** Map the NIF as `cpf` (as the stranger tried), instead of `externalId`. */
  nifAsCpf?: boolean
}

export function agendaproMapping (m: AgendaProMapping = {}): string {
  return `version: 1
installation: agendapro-like
timezone: Europe/Lisbon
storedIn: UTC
phone: { defaultCountry: PT }
search: [phone, email, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
  initial: WAITING
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED], CANCELED: [] }
  onReschedule: WAITING
  free: [CANCELED]
resources:
  appointment:
    table: slot
    key: slot_id
    start: { datetime: { column: start_utc, format: datetime } }
    end: { duration: { column: grid, pattern: { per: 10, repeat: X } } }
    state: { column: st, map: { b: WAITING, c: CONFIRMED, x: CANCELED } }
    refs: { client: person_no, professional: { column: clin_code, type: text } }
    openSlots:
      free: [{ column: person_no, isNull: true }, { column: st, eq: o }]
      onCancel: reopen
    write:
      key: { generate: max }
  client:
    table: person
    key: person_no
    joins:
      mail: { table: person_contact, on: { person_no: person_no }, where: { column: kind, eq: MAIL } }
    fields:
      name: { template: '{given} {family}' }
      email: mail.value
      birthday: ${m.birthday ?? '{ column: born, format: dmy }'}
      ${m.nifAsCpf ? 'cpf' : 'externalId'}: nif
    phones:
      - collect: { table: person_contact, on: { person_no: person_no }, where: { column: kind, in: [MOB, TEL] }, column: value, by: [kind] }
    write:
      key: { generate: max }
      set: { created_utc: { now: datetime } }
      phoneFormat: masked
      foreignPhoneFormat: international
      after:
        - { phones: 0, set: { kind: { value: MOB } } }
        - { join: mail, set: { kind: { value: MAIL } } }
  professional:
    table: clinician
    key: { column: clin_code, type: text }
    fields: { name: display }
    enabled: { column: active, trueValues: ['Y'] }
`
}
