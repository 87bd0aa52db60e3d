// Which MariaDB/MySQL errors are a deadlock the driver runs again: MariaDB reports named locks
// taken crosswise as 1213 (seen on 10.11), MySQL 5.7+ as 3058; both, and nothing else, retry
// and then answer 503 as a deadlock victim, never a 500.
import t from 'tap'
import { isDeadlock, translate } from '../../../../src/sql/mysql/errors.js'
import { DatabaseUnavailableError } from '../../../../src/errors.js'

t.test('1213 and 3058 are deadlocks; a lock wait timeout and a duplicate are not', async (t) => {
  t.same([1213, 3058, 1205, 1062, undefined].map(isDeadlock), [true, true, false, false, false])
})

t.test('a deadlock past its retries is a 503 problem saying so', async (t) => {
  for (const errno of [1213, 3058]) {
    const err = translate(Object.assign(new Error('Deadlock found when trying to get user-level lock'), { errno }))
    t.ok(err instanceof DatabaseUnavailableError, `${errno}: unavailable (503)`)
    t.match((err as Error).message, /deadlock victim/)
  }
})
