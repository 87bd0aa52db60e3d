// "Consultório Aurora": a small schema, unlike the samples, whose values are only expressible
// by composing sources (issue 9, item 3): a client's name from their current name row, else a
// social name when they asked for it, else the registered one; an e-mail from the first contact
// row, else a legacy column; a professional's name from the
// person, else the legacy column; a room inheriting its parent's address; the professional of a
// transferred visit is the substitute; a visit's length up to its end, else its booked end.
// The same fixture loads into SQLite, MariaDB and PostgreSQL (each dialect's loader).
import type { Test } from 'tap'
import type { Fixture, FixtureColumn } from '../../src/fixtures/format.js'
import type { TestDialect } from './app.js'
import { fixtureInstallation, type FixtureApp } from './fixture-installation.js'

const col = (name: string, type: FixtureColumn['type'], nullable = true, length?: number): FixtureColumn =>
  ({ name, type, nullable, ...length ? { length } : {} })

export const COMPOSE_FIXTURE: Fixture = {
  name: 'consultorio-aurora',
  tables: [
    {
      name: 'person_names',
      columns: [col('pn_id', 'int', false), col('person_ref', 'int', false), col('first_nm', 'ntext', true, 60), col('last_nm', 'ntext', true, 60), col('current_row', 'bit', false)],
      primaryKey: ['pn_id'],
      rows: [
        [1, 11, 'Ana', 'Lima', 1],
        [2, 11, 'Ana Old', 'Lima Old', 0], // an old name: never shown
        [3, 14, '  ', '', 1], // a current name row holding nothing: blank, so the next source speaks
        [4, 21, 'Teresa', 'Aliaga', 1],
        [5, 23, null, null, 1]
      ]
    },
    {
      name: 'patient_card',
      columns: [col('card_id', 'int', false), col('person_ref', 'int'), col('full_name', 'ntext', true, 80), col('social_nm', 'ntext', true, 60),
        col('use_social', 'bit', false), col('birth', 'date'), col('tel', 'text', true, 30), col('legacy_email', 'text', true, 80)],
      primaryKey: ['card_id'],
      rows: [
        [1, 11, 'Ana Registered Lima', null, 0, '1990-01-02', '11 98765-4321', 'ana.legacy@aurora.test'],
        [2, 12, 'Carlos Souza', 'Kai', 1, '1985-05-06', '11 97654-3210', 'kai@legacy.test'],
        [3, 13, 'Beatriz Rocha', 'Bia', 0, null, '11 96543-2109', null],
        [4, 14, 'Dora Alves', null, 0, null, null, null],
        [5, 15, 'Eva Nunes', '   ', 1, null, null, null]
      ]
    },
    {
      name: 'card_contact',
      columns: [col('contact_id', 'int', false), col('card_id', 'int', false), col('kind', 'char', false, 1), col('contact', 'text', true, 80)],
      primaryKey: ['contact_id'],
      rows: [
        [1, 1, 'E', '   '], // a blank row first: not the e-mail
        [2, 1, 'E', 'ana@aurora.test'],
        [3, 1, 'E', 'ana.old@aurora.test'],
        [4, 2, 'P', 'not-an-email@x.test'] // another kind
      ]
    },
    {
      name: 'staff',
      columns: [col('staff_id', 'int', false), col('person_ref', 'int'), col('display_name', 'ntext', true, 80), col('active', 'bit', false)],
      primaryKey: ['staff_id'],
      rows: [[1, 21, 'T. Aliaga (legacy)', 1], [2, 22, 'Dr. Legacy Only', 1], [3, 23, 'Lic. Blank Person', 1]]
    },
    {
      name: 'site',
      columns: [col('site_id', 'int', false), col('site_name', 'ntext', false, 80), col('street', 'ntext', true, 120), col('town', 'ntext', true, 60), col('parent_id', 'int')],
      primaryKey: ['site_id'],
      rows: [[1, 'Aurora Centro', 'Rua das Flores 10', 'Curitiba', null], [2, 'Sala 1', null, null, 1], [3, 'Anexo', 'Av. Brasil 99', 'Curitiba', 1]]
    },
    {
      name: 'visit',
      columns: [col('visit_id', 'int', false), col('card_id', 'int', false), col('staff_id', 'int', false), col('substitute_id', 'int'), col('site_id', 'int', false),
        col('starts', 'datetime', false), col('ends', 'datetime'), col('booked_until', 'datetime'), col('status', 'char', false, 1)],
      primaryKey: ['visit_id'],
      indexes: [['starts']],
      rows: [
        [1, 1, 1, null, 2, '2027-05-03 09:00:00', '2027-05-03 09:30:00', '2027-05-03 09:20:00', 'S'],
        [2, 2, 1, 2, 2, '2027-05-03 10:00:00', null, '2027-05-03 10:45:00', 'T'], // transferred to staff 2
        [3, 3, 2, null, 3, '2027-05-04 14:00:00', null, null, 'C'],
        [4, 4, 3, 2, 1, '2027-05-04 15:00:00', '2027-05-04 15:40:00', null, 'S'] // a substitute named, but not transferred
      ]
    }
  ]
}

export const COMPOSE_MAPPING = `
version: 1
installation: consultorio-aurora
timezone: America/Sao_Paulo
search: [name, phone, email]
resources:
  appointment:
    table: visit
    key: visit_id
    start: { datetime: { column: starts, format: datetime } }
    end:
      duration:
        minutes:
          from: starts
          to: { coalesce: [ends, booked_until], format: datetime }
    state:
      column: status
      map: { S: WAITING, C: CONFIRMED, T: WAITING, X: CANCELED }
    refs:
      client: card_id
      professional:
        type: int
        coalesce:
          - rules:
              - { when: { column: status, eq: T }, column: substitute_id }
          - staff_id
      location: site_id
  client:
    table: patient_card
    key: card_id
    joins:
      nm:
        table: person_names
        on: { person_ref: person_ref }
        where: { column: current_row, eq: 1 }
        first: { key: pn_id }
    fields:
      name:
        coalesce:
          - { template: '{nm.last_nm}, {nm.first_nm}' }
          - rules:
              - when: { column: use_social, eq: 1 }
                then: { coalesce: [social_nm, full_name] }
              - column: full_name
      birthday: { column: birth, format: date }
      email:                                 # the first e-mail contact row, else the legacy column
        coalesce:
          - collect: { table: card_contact, on: { card_id: card_id }, where: { column: kind, eq: E }, column: contact, by: [contact_id] }
          - legacy_email
    phones: [tel]
  professional:
    table: staff
    key: staff_id
    joins:
      pn: { table: person_names, on: { person_ref: person_ref }, where: { column: current_row, eq: 1 }, first: { key: pn_id } }
    fields:
      name:
        coalesce:
          - { template: '{pn.first_nm} {pn.last_nm}' }
          - display_name
    enabled: active
  location:
    table: site
    key: site_id
    joins:
      parent: { table: site, on: { parent_id: site_id } }
    fields:
      name: site_name
      address:
        coalesce:
          - { template: '{street}, {town}' }
          - { template: '{parent.street}, {parent.town}' }
      city:
        rules:
          - when: { column: street, blank: false }
            column: town
          - then: { coalesce: [parent.town, { value: 'Curitiba' }] }
`

export type ComposeApp = FixtureApp

/** The installation on one dialect's database (a scratch database, dropped at teardown). */
export async function composeInstallation (t: Test, dialect: TestDialect, mapping = COMPOSE_MAPPING): Promise<ComposeApp> {
  return await fixtureInstallation(t, dialect, COMPOSE_FIXTURE, mapping)
}
