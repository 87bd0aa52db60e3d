// Two validators: query strings and paths arrive as text and are coerced to their schema
// types ('true' → true, '50' → 50); JSON bodies are not, so `{ "name": 123 }` is a 400
// instead of a client called "123".
import AjvModule, { type Options } from 'ajv'
import formatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

// Both packages are CommonJS with a default export under `default`.
const Ajv = AjvModule.default
const addFormats = formatsModule.default

function make (options: Options): InstanceType<typeof Ajv> {
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, ...options })
  addFormats(ajv)
  return ajv
}

export function validatorCompiler (): FastifySchemaCompiler<unknown> {
  const coercing = make({ coerceTypes: 'array' })
  const strict = make({ coerceTypes: false })
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object)
}
