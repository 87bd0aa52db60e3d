// Does an answer match the OpenAPI document? A small validator built from /openapi.json with
// Ajv (JSON Schema 2020-12, what OpenAPI 3.1 schemas are): the operation is found by method and
// path template, and the answer's status must be declared, its media type listed, its body
// valid against the schema, and its declared headers (when sent) valid too.
import Ajv2020Module from 'ajv/dist/2020.js'
import formatsModule from 'ajv-formats'
import type { ValidateFunction } from 'ajv'

const Ajv2020 = Ajv2020Module.default
const addFormats = formatsModule.default

export interface WireAnswer { status: number, headers: Record<string, string | string[] | undefined>, text: string }

interface Operation { path: string, method: string, pointer: string, responses: Record<string, any> }

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

export class WireValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  private readonly templates: Array<{ re: RegExp, path: string, literal: number }> = []
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor (readonly doc: any) {
    addFormats(this.ajv)
    this.ajv.addSchema(doc, 'openapi.json')
    for (const path of Object.keys(doc.paths)) {
      const re = new RegExp(`^${path.split('/').map((part) => part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('/')}$`)
      // A literal segment wins over a parameter (/clients/search before /clients/{id}).
      this.templates.push({ re, path, literal: path.split('/').filter((p) => !p.startsWith('{')).length })
    }
    this.templates.sort((a, b) => b.literal - a.literal)
  }

  /** The documented path an actual path (no query, no base path) is an instance of. */
  template (path: string): string | undefined {
    return this.templates.find((t) => t.re.test(path))?.path
  }

  operation (method: string, path: string): Operation | undefined {
    const template = this.template(path)
    if (template === undefined) return undefined
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
    const op = this.doc.paths[template][m]
    return op === undefined ? undefined : { path: template, method: m, pointer: `#/paths/${escape(template)}/${m}`, responses: op.responses }
  }

  private validator (pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer)
    if (v === undefined) {
      v = this.ajv.compile({ $ref: `openapi.json${pointer}` })
      this.compiled.set(pointer, v)
    }
    return v
  }

  /** Problem details in problem+json: what every answer outside the document's operations must be. */
  private problem (answer: WireAnswer): string[] {
    const type = String(answer.headers['content-type'] ?? '').split(';')[0].trim()
    if (type !== 'application/problem+json') return [`content type ${type || '(none)'}, expected application/problem+json`]
    return this.body(answer.text, '#/components/schemas/Problem', true)
  }

  private body (text: string, pointer: string, json: boolean): string[] {
    let value: unknown = text
    if (json) {
      try { value = JSON.parse(text) } catch { return ['body is not JSON'] }
    }
    const v = this.validator(pointer)
    return v(value) ? [] : (v.errors ?? []).slice(0, 3).map((e) => `body${e.instancePath} ${e.message ?? 'is invalid'}`)
  }

  /**
   * Why `answer` does not match the document for `method path` (empty when it does). A path
   * the document lacks may only get a problem (404, or 400 for a malformed path); a method it
   * lacks on a documented path only a 405 problem.
   */
  check (method: string, path: string, answer: WireAnswer): string[] {
    const op = this.operation(method, path)
    if (op === undefined) {
      const template = this.template(path)
      const allowed = template === undefined ? [400, 404, 413, 415, 503] : [400, 405, 413, 415, 503]
      const why = allowed.includes(answer.status) ? [] : [`status ${answer.status} for an undocumented ${template === undefined ? 'path' : 'method'}`]
      return [...why, ...this.problem(answer)]
    }
    const declared = op.responses[String(answer.status)]
    if (declared === undefined) return [`status ${answer.status} is not declared for ${op.method.toUpperCase()} ${op.path}`]
    const out: string[] = []
    for (const name of Object.keys(declared.headers ?? {})) {
      const sent = answer.headers[name]
      if (sent === undefined) {
        if (name === 'x-request-id' || name === 'ponte-interface-version') out.push(`header ${name} missing`)
        continue
      }
      const v = this.validator(`${op.pointer}/responses/${answer.status}/headers/${escape(name)}/schema`)
      if (!v(sent)) out.push(`header ${name}: ${v.errors?.[0]?.message ?? 'invalid'}`)
    }
    if (method.toUpperCase() === 'HEAD') return out
    const media = String(answer.headers['content-type'] ?? '').split(';')[0].trim()
    const content = declared.content ?? {}
    if (content[media] === undefined) return [...out, `content type ${media || '(none)'} not declared (declared: ${Object.keys(content).join(', ')})`]
    return [...out, ...this.body(answer.text, `${op.pointer}/responses/${answer.status}/content/${escape(media)}/schema`, media !== 'text/plain')]
  }
}
