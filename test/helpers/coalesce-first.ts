// A speech-therapy practice whose visits name their own plan (`visit.plan_no`, or the payer
// itself in `payer_own`), 0 on rows older than the column, where the member's first plan
// (`member_plan` by `ordinal`) stands: the appointment's insurer is a coalesce of the visit's
// own and the member's. Portable SQL for `scratchOn`.
export const DAY = '2031-03-04' // a Tuesday

export const COALESCE_FIRST_SCHEMA = `
CREATE TABLE member (member_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, mobile VARCHAR(20));
INSERT INTO member (member_no, full_name, mobile) VALUES (1, 'Ana Souza', '11987650001');
INSERT INTO member (member_no, full_name, mobile) VALUES (2, 'Bruno Lima', '11987650002');
INSERT INTO member (member_no, full_name, mobile) VALUES (3, 'Clara Reis', '11987650003');
CREATE TABLE payer (payer_id INTEGER PRIMARY KEY, payer_name VARCHAR(40) NOT NULL);
INSERT INTO payer (payer_id, payer_name) VALUES (10, 'Vida Saude');
INSERT INTO payer (payer_id, payer_name) VALUES (20, 'Bem Estar');
INSERT INTO payer (payer_id, payer_name) VALUES (30, 'Mais Plano');
CREATE TABLE plan (plan_no INTEGER PRIMARY KEY, payer_id INTEGER NOT NULL);
INSERT INTO plan (plan_no, payer_id) VALUES (100, 10);
INSERT INTO plan (plan_no, payer_id) VALUES (200, 20);
INSERT INTO plan (plan_no, payer_id) VALUES (300, 30);
CREATE TABLE member_plan (mp_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, ordinal INTEGER NOT NULL, plan_no INTEGER NOT NULL);
INSERT INTO member_plan (mp_id, member_no, ordinal, plan_no) VALUES (1, 1, 1, 200);
INSERT INTO member_plan (mp_id, member_no, ordinal, plan_no) VALUES (2, 2, 2, 100);
INSERT INTO member_plan (mp_id, member_no, ordinal, plan_no) VALUES (3, 2, 1, 300);
CREATE TABLE therapist (therapist_id INTEGER PRIMARY KEY, therapist_name VARCHAR(60) NOT NULL);
INSERT INTO therapist (therapist_id, therapist_name) VALUES (1, 'Dra Vera Prado');
CREATE TABLE therapist_week (therapist_id INTEGER NOT NULL, weekday INTEGER NOT NULL, from_hm VARCHAR(5) NOT NULL, to_hm VARCHAR(5) NOT NULL);
${[0, 1, 2, 3, 4, 5, 6].map((d) => `INSERT INTO therapist_week (therapist_id, weekday, from_hm, to_hm) VALUES (1, ${d}, '08:00', '12:00');`).join('\n')}
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, therapist_id INTEGER NOT NULL, visit_day DATE NOT NULL, visit_hm VARCHAR(5) NOT NULL, plan_no INTEGER DEFAULT 0 NOT NULL, payer_own INTEGER DEFAULT 0 NOT NULL, flag CHAR(1) NOT NULL);
INSERT INTO visit (visit_id, member_no, therapist_id, visit_day, visit_hm, plan_no, payer_own, flag) VALUES (1, 1, 1, '2031-03-04', '08:00', 100, 10, 'w');
INSERT INTO visit (visit_id, member_no, therapist_id, visit_day, visit_hm, plan_no, payer_own, flag) VALUES (2, 1, 1, '2031-03-04', '08:30', 0, 0, 'w');
INSERT INTO visit (visit_id, member_no, therapist_id, visit_day, visit_hm, plan_no, payer_own, flag) VALUES (3, 3, 1, '2031-03-04', '09:00', 0, 0, 'w');
`

/** The visit's own plan (read through `own`, written by `firstOf`), else the member's first. */
export const THROUGH_PLAN = `
      healthInsurance: { coalesce: [own.payer_id, mpp.payer_id] }
    write:
      key: { generate: max }
      refs:
        healthInsurance: { firstOf: own }`

/** The visit's own payer column, 0 when none, else the member's first plan's. */
export const OWN_COLUMN = `
      healthInsurance: { coalesce: [{ column: payer_own, nullIf: [0] }, mpp.payer_id] }
    write:
      key: { generate: max }`

export function coalesceFirstMapping (refs = THROUGH_PLAN): string {
  return `version: 1
installation: coalesce-first
timezone: America/Sao_Paulo
cache: { ttlSeconds: 3600 }
states:
  values: [WAITING, CANCELED]
resources:
  appointment:
    table: visit
    key: visit_id
    joins:
      own: { table: plan, on: { plan_no: plan_no } }
      mp: { table: member_plan, on: { member_no: member_no }, first: { key: mp_id, by: [ordinal] } }
      mpp: { table: plan, from: mp, on: { plan_no: plan_no } }
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hm, format: text }
    state: { column: flag, map: { w: WAITING, x: CANCELED } }
    refs:
      client: member_no
      professional: therapist_id${refs}
  client:
    table: member
    key: member_no
    joins:
      cp: { table: member_plan, on: { member_no: member_no }, first: { key: mp_id, by: [ordinal] } }
    fields:
      name: full_name
    phones: [mobile]
  professional:
    table: therapist
    key: therapist_id
    fields: { name: therapist_name }
  healthInsurance:
    table: payer
    key: payer_id
    fields: { name: payer_name }
availability:
  slotMinutes: 30
  weekly:
    table: therapist_week
    professional: therapist_id
    weekday: weekday
    start: { column: from_hm, format: text }
    end: { column: to_hm, format: text }
`
}
