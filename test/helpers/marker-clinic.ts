// A small agenda whose appointments carry two datetime columns, per test database: `touched`,
// which the database sets on every update (MariaDB's ON UPDATE CURRENT_TIMESTAMP, a trigger on
// SQLite and PostgreSQL), and `stale`, a plain column nobody maintains. Change detection's
// marker tests (check and the poller) run on it.
import type { TestDialect } from './app.js'
import { addDays, todayIn } from '../../src/normalise/datetime.js'
import { deskMapping } from './desk-agenda.js'

export const ZONE = 'America/Sao_Paulo'
export const today = todayIn(ZONE)
export const day = (n: number): string => addDays(today, n)

const MOVES: Record<string, string> = {
  sqlite: 'touched DATETIME',
  mysql: 'touched DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP',
  postgres: 'touched TIMESTAMP'
}

const TRIGGER: Record<string, string> = {
  sqlite: "CREATE TRIGGER visit_touch AFTER UPDATE ON visit FOR EACH ROW WHEN NEW.touched IS OLD.touched BEGIN UPDATE visit SET touched = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE vid = NEW.vid; END;\n",
  mysql: '',
  postgres: 'CREATE FUNCTION visit_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.touched := clock_timestamp(); RETURN NEW; END $$;\n' +
    'CREATE TRIGGER visit_touch BEFORE UPDATE ON visit FOR EACH ROW EXECUTE FUNCTION visit_touch();\n'
}

/** The schema on `dialect`, with `extra` appointments (ids from 100) on day 2 for the cost tests. */
export function markerSchema (dialect: TestDialect, extra = 0): string {
  const rows = [
    `(1, '${day(2)}', '09:00', 'A')`, `(2, '${day(3)}', '10:00', 'A')`, `(3, '${day(4)}', '11:00', 'C')`,
    ...Array.from({ length: extra }, (_, i) => `(${100 + i}, '${day(2)}', '12:00', 'A')`)
  ]
  // Stored long ago: an update this second moves it, on a column of seconds too.
  return `CREATE TABLE visit (vid INTEGER PRIMARY KEY, on_day DATE NOT NULL, at_hour VARCHAR(5) NOT NULL, st CHAR(1) NOT NULL, ${MOVES[dialect]}, stale ${dialect === 'postgres' ? 'TIMESTAMP' : 'DATETIME'});
CREATE TABLE person (pid INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL);
${TRIGGER[dialect]}${rows.map((r) => `INSERT INTO visit (vid, on_day, at_hour, st, touched, stale) VALUES ${r.slice(0, -1)}, '2020-01-01 00:00:00', '2020-01-01 00:00:00');`).join('\n')}
`
}

/** The mapping: `changes` as given (YAML under `changes:`, a line each). */
export function markerMapping (changes: string): string {
  return deskMapping({
    installation: 'marker-clinic',
    zone: ZONE,
    table: 'visit',
    key: 'vid',
    date: 'on_day',
    hour: 'at_hour',
    state: 'st',
    codes: ['A', 'C', 'X'],
    changes: changes.split('\n').filter((l) => l !== ''),
    client: { table: 'person', key: 'pid', name: 'full_name' }
  })
}
