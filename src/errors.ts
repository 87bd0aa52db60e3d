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

export class NotFoundError extends PonteError {
  readonly status = 404
  readonly type = 'not-found'
  readonly title = 'Not found'
}

export class ConflictError extends PonteError {
  readonly status = 409
  readonly type = 'conflict'
  readonly title = 'Conflict'
}

export class DatabaseUnavailableError extends PonteError {
  readonly status = 503
  readonly type = 'database-unavailable'
  readonly title = 'Database unavailable'
  override readonly headers = { 'retry-after': '5' }
  constructor (message = 'The clinic database cannot be reached right now.', cause?: unknown) { super(message, { cause }) }
}

export class DatabaseTimeoutError extends PonteError {
  readonly status = 504
  readonly type = 'database-timeout'
  readonly title = 'Database timeout'
  constructor (message = 'The clinic database did not answer in time.', cause?: unknown) { super(message, { cause }) }
}
