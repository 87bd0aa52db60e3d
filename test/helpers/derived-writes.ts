// A clinic schema for issue 27 item 8 (derived write columns), unlike the samples: an
// OSCAR-like `booking` row keeping a `name` copy of its patient (`SURNAME,FORENAMES`), an
// OpenEMR-like `title` copy of the booked visit kind's name, the doctor's label, `createdate`
// and `last_update_date` stamps on the clinic's clock (OSCAR's `lastUpdateDate`, lower case
// as PostgreSQL keeps unquoted names) and `sync_utc` in UTC; patients with a last-change
// stamp. Portable SQL for `scratchOn`; the mapping is also compiled for SQL Server by
// test/language/derived-writes-golden.test.ts.
import type { TestDialect } from './app.js'

const STAMP: Record<TestDialect, string> = { sqlite: 'TEXT', mysql: 'DATETIME', postgres: 'TIMESTAMP' }

export function derivedSchema (dialect: TestDialect): string {
  const ts = STAMP[dialect]
  return `
CREATE TABLE patient_rec (pat_no INTEGER PRIMARY KEY, forenames VARCHAR(40) NOT NULL, surname VARCHAR(40) NOT NULL, tel VARCHAR(20), changed_at ${ts}, changed_utc ${ts});
INSERT INTO patient_rec (pat_no, forenames, surname, tel) VALUES (1, 'Mary Ann', 'Smith', '4165550101');
INSERT INTO patient_rec (pat_no, forenames, surname, tel) VALUES (2, 'Raj', 'Patel', '4165550102');
CREATE TABLE doc (doc_code VARCHAR(6) PRIMARY KEY, doc_name VARCHAR(60) NOT NULL);
INSERT INTO doc (doc_code, doc_name) VALUES ('D1', 'Dr Ada Lovelace');
CREATE TABLE visit_kind (kind_id INTEGER PRIMARY KEY, title VARCHAR(60) NOT NULL, mins INTEGER);
INSERT INTO visit_kind (kind_id, title, mins) VALUES (7, 'Annual physical', 30);
CREATE TABLE booking (booking_no INTEGER PRIMARY KEY, doc_code VARCHAR(6) NOT NULL, pat_no INTEGER, kind_id INTEGER, day DATE NOT NULL, at_time VARCHAR(5) NOT NULL,
  status CHAR(1), name VARCHAR(60), title VARCHAR(60), doc_label VARCHAR(60), createdate ${ts}, last_update_date ${ts}, sync_utc ${ts}, room_no INTEGER, visits INTEGER);
`
}

export const DERIVED_MAPPING = `version: 1
installation: derived-writes
timezone: America/Toronto
phone: { defaultCountry: CA }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: booking
    key: booking_no
    start:
      date: { column: day, format: date }
      hour: { column: at_time, format: text }
    state: { column: status, map: { t: WAITING, c: CONFIRMED, x: CANCELED } }
    refs:
      client: pat_no
      professional: { column: doc_code, type: text }
      service: kind_id
    write:
      key: { generate: max }
      set:
        name: { client: familyFirst, separator: ',', case: upper }
        title: { service: name, otherwise: '' }
        doc_label: { professional: name }
        createdate: { now: datetime }
        last_update_date: { now: datetime }
      update:
        last_update_date: { now: datetime }
        sync_utc: { now: datetime, storedIn: UTC }
  client:
    table: patient_rec
    key: pat_no
    fields:
      name: { template: '{forenames} {surname}', split: lastSpace }
    phones: [tel]
    write:
      key: { generate: max }
      set:
        changed_at: { now: datetime }
      update:
        changed_at: { now: datetime }
        changed_utc: { now: datetime, storedIn: UTC }
  professional:
    table: doc
    key: { column: doc_code, type: text }
    fields: { name: doc_name }
  service:
    table: visit_kind
    key: kind_id
    fields: { name: title, duration: mins }
`
