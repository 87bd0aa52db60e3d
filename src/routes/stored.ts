import type { FastifyReply } from 'fastify'
import { IGNORED_DECLARED_HEADER, IGNORED_FIELDS_HEADER, type Stored } from '../services/stored.js'

/** A write's record as the body; the fields it accepted without storing named in a header. */
export function answerStored<T> (reply: FastifyReply, stored: Stored<T>): T {
  if (stored.ignored.length > 0) reply.header(IGNORED_FIELDS_HEADER, stored.ignored.join(', '))
  if ((stored.declared ?? []).length > 0) reply.header(IGNORED_DECLARED_HEADER, (stored.declared ?? []).join(', '))
  return stored.record
}
