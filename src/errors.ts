// Every failure the caller can see, as a typed error. The HTTP layer maps these to RFC 9457
// problem details in one place (plugins/problems.ts); nothing else decides a status code.
export interface FieldIssue { path: string, message: string }

export abstract class PonteError extends Error {
  abstract readonly status: number
  abstract readonly type: string
  abstract readonly title: string
  readonly headers: Record<string, string> = {}
}

export class InvalidInputError extends PonteError {
  readonly status = 400
  readonly type = 'invalid-input'
  readonly title = 'Invalid input'
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

export class UnauthorizedError extends PonteError {
  readonly status = 401
  readonly type = 'unauthorized'
  readonly title = 'Missing or invalid API key'
  override readonly headers = { 'www-authenticate': 'Bearer realm="ponte"' }
}

/** A valid key whose scope does not allow this (a read key on a write). */
export class ForbiddenError extends PonteError {
  readonly status = 403
  readonly type = 'forbidden'
  readonly title = 'Not allowed with this API key'
}

export class NotFoundError extends PonteError {
  readonly status = 404
  readonly type = 'not-found'
  readonly title = 'Not found'
  /** `errors` names the id that matched nothing (`/params/id`), where there is one. */
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

/** GET /events?after=N where events after N were purged (EVENTS_RETENTION_DAYS): reading on would skip them. */
export class EventsExpiredError extends PonteError {
  readonly status = 410
  readonly type = 'events-expired'
  readonly title = 'Events expired'
  constructor (readonly oldest: number) { super(`Events after this cursor were purged; the oldest cursor available is ${oldest}.`) }
}

/** GET /events?after=N past the log's head (the events file recreated): nothing after it would ever come. */
export class CursorAheadError extends PonteError {
  readonly status = 409
  readonly type = 'cursor-ahead'
  readonly title = 'Cursor ahead of the log'
  constructor (readonly head: number) { super(`The cursor is past the log's head, ${head}; start again from 0 or ${head}.`) }
}

/** A record asked for by the id in the path that does not exist. */
export function unknownId (what: string, id: string): NotFoundError {
  return new NotFoundError(`No ${what} with id "${id}".`, [{ path: '/params/id', message: `matches no ${what}` }])
}

/** The request is well formed but what it asks collides with what is stored (a slot taken, a state move not allowed). */
export class ConflictError extends PonteError {
  readonly status = 409
  readonly type = 'conflict'
  readonly title = 'Conflict'
  /** `errors` names each request field (or `/params/id`) the conflict is about. */
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

/**
 * The database refused a row because a unique key (a primary key, a unique index or
 * constraint) already holds its value. `key` is what the driver could tell of which one — its
 * table, its name, its columns — schema names only, never the value (patient data). The
 * database wrapper (db/colliding-key.ts) fills in the columns from the catalogue where the
 * driver gives only a name; the write service names the request fields writing them.
 */
export class DuplicateKeyError extends ConflictError {
  constructor (readonly key: CollidingKey = {}) {
    super('The clinic database already holds a row with that key.')
  }
}

/** Which unique key collided, as far as the database said: table, key (index or constraint) name, columns. */
export interface CollidingKey { table?: string, name?: string, columns?: string[] }

/** Idempotency-Key: the first request with this key is still being processed; retry later. */
export class IdempotencyConflictError extends PonteError {
  readonly status = 409
  readonly type = 'idempotency-key-in-flight'
  readonly title = 'A request with this Idempotency-Key is still being processed'
  override readonly headers = { 'retry-after': '1' }
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

/** Idempotency-Key: the key was already used for a different request (method, path or body). */
export class IdempotencyMismatchError extends PonteError {
  readonly status = 422
  readonly type = 'idempotency-key-reused'
  readonly title = 'Idempotency-Key reused for a different request'
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

export class DatabaseUnavailableError extends PonteError {
  readonly status = 503
  readonly type = 'database-unavailable'
  readonly title = 'Database unavailable'
  override readonly headers = { 'retry-after': '5' }
  constructor (message = 'The clinic database cannot be reached right now.', cause?: unknown) { super(message, { cause }) }
}

/** The Idempotency-Key store cannot be reached (Redis) or stays locked (SQLite): a keyed write cannot be made safe to retry. */
export class KeyStoreUnavailableError extends PonteError {
  readonly status = 503
  readonly type = 'idempotency-store-unavailable'
  readonly title = 'Idempotency-Key store unavailable'
  override readonly headers = { 'retry-after': '5' }
  constructor (cause?: unknown, why = 'the shared key store is unreachable') { super(`Requests with an Idempotency-Key cannot be answered right now (${why}); retry later.`, { cause }) }
}

export class EventStoreUnavailableError extends PonteError {
  readonly status = 503
  readonly type = 'event-store-unavailable'
  readonly title = 'Event store unavailable'
  override readonly headers = { 'retry-after': '5' }
  constructor (cause?: unknown) { super('Events cannot be read or recorded right now (the event store is locked by another process); retry later.', { cause }) }
}

export class DatabaseTimeoutError extends PonteError {
  readonly status = 504
  readonly type = 'database-timeout'
  readonly title = 'Database timeout'
  constructor (message = 'The clinic database did not answer in time.', cause?: unknown) { super(message, { cause }) }
}

/** The mapping does not say how to write this (a read-only installation, or a missing write block). */
export class NotWritableError extends PonteError {
  readonly status = 501
  readonly type = 'not-writable'
  readonly title = 'Not writable with this mapping'
  /** `errors` names each request field that cannot be stored. */
  constructor (message: string, readonly errors: FieldIssue[] = []) { super(message) }
}

/** A value the mapping itself writes (no request field gives it) that its column cannot hold: the mapping's to correct. */
export class MisfitMappingValueError extends NotWritableError {
  constructor (message: string, errors: FieldIssue[], readonly column: string) { super(message, errors) }
}

/**
 * A write would change a table whose engine keeps every statement the moment it runs (MariaDB's
 * MyISAM, Aria): were the write's read-back to differ, or a later statement to fail, nothing
 * could undo it. Refused before that table is touched, so nothing is written (what the write
 * did to transactional tables before it is rolled back), unless the mapping accepts it.
 */
export class NonTransactionalError extends NotWritableError {
  constructor (readonly table: string, readonly engine: string) {
    super(`This write would change table ${table}, whose engine (${engine}) cannot roll back, so it could not be undone if it went wrong; nothing was written. ` +
      'The installation must convert the table to a transactional engine (InnoDB), or declare `write.nonTransactional: accept` in its mapping.',
    [{ path: '/body', message: `cannot be stored: table ${table} (${engine}) cannot roll back, and the mapping does not accept that` }])
  }
}

/**
 * The installation's key generation cannot make a new key (its key table row is missing, the
 * largest key holds letters): no record can be created until the mapping's generator changes.
 * The detail (the statement) is for the log; `ponte check` names the line.
 */
export class KeyGenerationError extends NotWritableError {
  constructor (detail: string) {
    super('A new record cannot be given a key: the installation\'s key generator cannot make one from the keys the clinic database holds (ponte check names the cause).')
    this.cause = new Error(detail)
  }
}

/**
 * The database refused a NULL. The column is kept for the log and for mapping it back to the
 * request field; the caller's message never names the clinic's schema.
 */
export class MissingValueError extends InvalidInputError {
  constructor (readonly column?: string, cause?: unknown) {
    super('The clinic database requires a value this request did not give.')
    if (cause !== undefined) this.cause = cause
  }
}

export class RateLimitedError extends PonteError {
  readonly status = 429
  readonly type = 'rate-limited'
  readonly title = 'Too many requests'
}

/** The path exists, the method does not: `Allow` lists the ones it has. */
export class MethodNotAllowedError extends PonteError {
  readonly status = 405
  readonly type = 'method-not-allowed'
  readonly title = 'Method not allowed'
  override readonly headers: Record<string, string>
  constructor (method: string, path: string, allowed: string[]) {
    super(`${path} does not answer ${method}; it answers ${allowed.join(', ')}.`)
    this.headers = { allow: allowed.join(', ') }
  }
}

/** A body Ponte cannot read as it is labelled: compressed, or in a charset other than UTF-8. */
export class UnsupportedMediaTypeError extends PonteError {
  readonly status = 415
  readonly type = 'unsupported-media-type'
  readonly title = 'Unsupported media type'
}

/** Ponte is draining before exit: a request that arrives now goes to another instance. */
export class ShuttingDownError extends PonteError {
  readonly status = 503
  readonly type = 'shutting-down'
  readonly title = 'Shutting down'
  override readonly headers = { 'retry-after': '5', connection: 'close' }
  constructor () { super('This Ponte instance is shutting down; retry the request.') }
}

/**
 * The mapping does not fit the database and Ponte was started anyway (STRUCTURAL_CHECK=not-ready):
 * nothing is read or written until the mapping is corrected. /ready lists the places to fix.
 */
export class InstallationNotReadyError extends PonteError {
  readonly status = 503
  readonly type = 'installation-not-ready'
  readonly title = 'Installation not ready'
  override readonly headers = { 'retry-after': '60' }
  constructor (readonly findings: ReadonlyArray<{ line?: number, column?: number, subject: string, message: string }> = []) {
    super('This installation is not ready: its mapping does not fit the clinic database. It answers once the mapping is corrected (see /ready).')
  }
}

/**
 * A value the live column cannot hold as sent (text too long for it, letters for a number
 * column): refused before the database stores it otherwise. The column is kept for the log
 * and for naming the request field; the caller's message never names the clinic's schema.
 */
export class ValueMisfitError extends InvalidInputError {
  constructor (readonly column: string, readonly problem: string) {
    super(`A value ${problem}.`)
  }
}
