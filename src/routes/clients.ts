import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Client } from '../schemas/resources.js'
import { ByIdParams, ClientPatchBody, ClientSearchQuery, NewClientBody, PageQuery } from '../schemas/queries.js'
import { errorResponses, writeErrorResponses } from '../schemas/responses.js'

const clients: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/clients', {
    schema: {
      tags: ['clients'],
      summary: 'Clients, a page at a time',
      querystring: PageQuery,
      response: { 200: Type.Array(Client), ...errorResponses }
    }
  }, async (request) => await app.ponte.clients.list({ limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }))

  app.get('/clients/search', {
    schema: {
      tags: ['clients'],
      summary: 'Clients whose phone, CPF, e-mail or name equals the term (normalised)',
      querystring: ClientSearchQuery,
      response: { 200: Type.Array(Client), ...errorResponses }
    }
  }, async (request) => await app.ponte.clients.search(request.query.term, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }))

  app.get('/clients/:id', {
    schema: {
      tags: ['clients'],
      summary: 'One client',
      params: ByIdParams,
      response: { 200: Client, ...errorResponses }
    }
  }, async (request) => await app.ponte.clients.get(request.params.id))

  app.post('/clients', {
    config: { idempotent: true },
    schema: {
      tags: ['clients'],
      summary: 'Register a client',
      body: NewClientBody,
      response: { 200: Client, ...writeErrorResponses }
    }
  }, async (request) => await app.ponte.clientWrites.create(request.body))

  app.patch('/clients/:id', {
    schema: {
      tags: ['clients'],
      summary: 'Change a client (only the keys sent)',
      params: ByIdParams,
      body: ClientPatchBody,
      response: { 200: Client, ...writeErrorResponses }
    }
  }, async (request) => await app.ponte.clientWrites.update(request.params.id, request.body))
}

export default clients
