// A veterinary desk that writes an audit row for every booking and every state change (its
// cancellations included) into a table of its own, beside the visit row, as Open Dental's
// `securitylog` does; and a second, numbered ledger row for each booking. For `write.log`
// (docs/mapping.md), unlike the samples. Portable SQL for `scratchOn`; the mapping is also
// compiled for SQL Server by test/language/log-golden.test.ts.
import type { TestDialect } from './app.js'
import { DATETIME, IDENTITY } from './openmrs-like.js'
import { addDays, todayIn } from '../../src/normalise/datetime.js'

export const ZONE = 'Pacific/Auckland'
export const DAY = addDays(todayIn(ZONE), 4)
export const CLERK = 31

export function schema (dialect: TestDialect): string {
  return `
CREATE TABLE pet_owner (owner_id INTEGER PRIMARY KEY, owner_name VARCHAR(40) NOT NULL);
CREATE TABLE vet (vet_id INTEGER PRIMARY KEY, vet_name VARCHAR(30) NOT NULL);
CREATE TABLE rota (vet_id INTEGER NOT NULL, dow INTEGER NOT NULL, opens VARCHAR(5) NOT NULL, closes VARCHAR(5) NOT NULL);
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, vet_id INTEGER NOT NULL, visit_day DATE NOT NULL, visit_hour VARCHAR(5) NOT NULL, status VARCHAR(3) NOT NULL);
CREATE TABLE audit_trail (audit_id ${IDENTITY[dialect]}, action_code INTEGER NOT NULL, visit_ref INTEGER NOT NULL, owner_ref INTEGER NOT NULL,
  logged_at ${DATETIME[dialect]} NOT NULL, clerk INTEGER NOT NULL, note VARCHAR(60) NOT NULL, status_now VARCHAR(3));
CREATE TABLE ledger (entry_no INTEGER PRIMARY KEY, visit_ref INTEGER NOT NULL, kind VARCHAR(8) NOT NULL);
INSERT INTO pet_owner (owner_id, owner_name) VALUES (1, 'Aroha Ngata');
INSERT INTO pet_owner (owner_id, owner_name) VALUES (2, 'Tama Wiremu');
INSERT INTO vet (vet_id, vet_name) VALUES (6, 'Dr Hale');
${[0, 1, 2, 3, 4, 5, 6].map((d) => `INSERT INTO rota (vet_id, dow, opens, closes) VALUES (6, ${d}, '08:00', '17:00');`).join('\n')}
INSERT INTO visit (visit_id, owner_id, vet_id, visit_day, visit_hour, status) VALUES (1, 2, 6, '${DAY}', '09:00', 'BK');
INSERT INTO audit_trail (action_code, visit_ref, owner_ref, logged_at, clerk, note, status_now) VALUES (25, 1, 2, '2020-01-01 10:00:00', 1, 'desk', 'BK');
INSERT INTO ledger (entry_no, visit_ref, kind) VALUES (70, 1, 'desk');
`
}

export const MAPPING = `version: 1
installation: audit-log
timezone: ${ZONE}
settings: { userId: ${CLERK} }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [CANCELED] }
resources:
  appointment:
    table: visit
    key: visit_id
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hour, format: text }
    state: { column: status, map: { BK: WAITING, OK: CONFIRMED, CX: CANCELED } }
    refs: { client: owner_id, professional: vet_id }
    write:
      key: { generate: max }
      log:
        - table: audit_trail
          on: [create, state]
          set:
            action_code: { event: { create: 25, state: 26 } }
            visit_ref: { after: visit_id }
            owner_ref: { after: owner_id }
            logged_at: { now: datetime }
            clerk: { setting: userId }
            note: { value: Ponte booking }
            status_now: { after: status }
        - table: ledger
          rowKey: { column: entry_no, generate: max }
          set:
            visit_ref: { after: visit_id }
            kind: { value: booked }
  client:
    table: pet_owner
    key: owner_id
    fields: { name: owner_name }
    write: { key: { generate: max } }
  professional:
    table: vet
    key: vet_id
    fields: { name: vet_name }
availability:
  slotMinutes: 30
  weekly:
    table: rota
    professional: vet_id
    weekday: dow
    weekdayBase: 0
    start: { column: opens, format: text }
    end: { column: closes, format: text }
`
