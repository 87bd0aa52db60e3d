// An OSCAR-like `demographic` for issue 27 items 9 and 10: a birthday in three text columns,
// some rows unpadded (`7`), names in `first_name`/`last_name` kept upper case, and a mapping
// choosing the padding, the split rule and `case: upper`. Portable SQL for `scratchOn`; the
// mapping is also compiled for SQL Server by test/language/name-split-golden.
import type { TestDialect } from './app.js'

/** A trigger upper-casing the stored names, as legacy desks do, in each database's words. */
export const UPPER_TRIGGER: Record<TestDialect, string> = {
  sqlite: `CREATE TRIGGER demo_upper AFTER INSERT ON demographic BEGIN UPDATE demographic SET first_name = upper(first_name), last_name = upper(last_name) WHERE demographic_no = NEW.demographic_no; END;
CREATE TRIGGER demo_upper_again AFTER UPDATE OF first_name, last_name ON demographic WHEN NEW.first_name <> upper(NEW.first_name) OR NEW.last_name <> upper(NEW.last_name) BEGIN UPDATE demographic SET first_name = upper(first_name), last_name = upper(last_name) WHERE demographic_no = NEW.demographic_no; END;`,
  mysql: `CREATE TRIGGER demo_upper BEFORE INSERT ON demographic FOR EACH ROW SET NEW.first_name = UPPER(NEW.first_name), NEW.last_name = UPPER(NEW.last_name);
CREATE TRIGGER demo_upper_again BEFORE UPDATE ON demographic FOR EACH ROW SET NEW.first_name = UPPER(NEW.first_name), NEW.last_name = UPPER(NEW.last_name);`,
  postgres: `CREATE FUNCTION demo_upper() RETURNS trigger AS $$ BEGIN NEW.first_name := upper(NEW.first_name); NEW.last_name := upper(NEW.last_name); RETURN NEW; END $$ LANGUAGE plpgsql;
CREATE TRIGGER demo_upper BEFORE INSERT OR UPDATE ON demographic FOR EACH ROW EXECUTE FUNCTION demo_upper();`
}

// Existing rows: mostly unpadded months and days below 10 (1 and 2), one padded (3).
export const NAMES_SCHEMA = `
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL,
  year_of_birth VARCHAR(4), month_of_birth VARCHAR(2), date_of_birth VARCHAR(2), phone VARCHAR(20), middle_name VARCHAR(30));
INSERT INTO demographic VALUES (1, 'TREMBLAY', 'MARIE', '1985', '7', '3', '11987650001', NULL);
INSERT INTO demographic VALUES (2, 'SINGH', 'RAVI', '1990', '12', '5', '11987650002', NULL);
INSERT INTO demographic VALUES (3, 'CHEN', 'AMY', '1979', '09', '30', '11987650003', NULL);
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL);
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6) NOT NULL, appointment_date DATE NOT NULL, start_time VARCHAR(5) NOT NULL, demographic_no INTEGER, status CHAR(1));
`

export interface NamesChoice {
  /** The name's `split`, `case` and the birthday's `pad`, each left out when undefined. */
  split?: 'firstSpace' | 'lastSpace' | 'particles'
  upper?: boolean
  pad?: 1 | 2
  /** The name written through `{first_name} {middle_name} {last_name}` (OpenMRS's three columns). */
  middle?: boolean
}

export function namesMapping ({ split, upper, pad, middle }: NamesChoice = {}): string {
  const name = [middle === true ? 'template: \'{first_name} {middle_name} {last_name}\'' : 'template: \'{first_name} {last_name}\'', split && `split: ${split}`, upper && 'case: upper'].filter(Boolean).join(', ')
  const birthday = ['template: \'{date_of_birth}/{month_of_birth}/{year_of_birth}\'', 'format: dmy', pad && `pad: ${pad}`].filter(Boolean).join(', ')
  return `version: 1
installation: oscar-names
timezone: America/Toronto
phone: { defaultCountry: BR }
search: [name]
resources:
  appointment:
    table: appointment
    key: appointment_no
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: text }
    state: { column: status, map: { t: WAITING, C: CANCELED } }
    refs:
      client: demographic_no
      professional: provider_no
  client:
    table: demographic
    key: demographic_no
    fields:
      name: { ${name} }
      birthday: { ${birthday} }
    phones: [phone]
    write:
      key: { generate: max }
  professional:
    table: provider
    key: { column: provider_no, type: text }
    fields: { name: { template: '{first_name} {last_name}' } }
`
}
