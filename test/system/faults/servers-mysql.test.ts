// Issue 12: faults against the real local MariaDB server (see test/helpers/server-faults.ts):
// stopped, silent, connections killed, a statement past its timeout, the pool exhausted.
import t from 'tap'
import { faultSuite } from '../../helpers/server-faults.js'
import { REAL_SERVERS } from '../../helpers/real-servers.js'

// Five faults under load, each followed by a 5 s recovery window: longer than tap's default.
t.setTimeout(300_000)
await faultSuite(t, REAL_SERVERS.mysql)
