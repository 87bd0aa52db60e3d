import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Client } from '../schemas/resources.js'
import { ByIdParams, ClientPatchBody, ClientSearchQuery, NewClientBody, PageQuery } from '../schemas/queries.js'
import { jsonBody, responses } from '../schemas/responses.js'
import { examples } from '../schemas/examples.js'
import { answerStored } from './stored.js'

const clients: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/clients', {
    schema: {
      tags: ['clients'],
      operationId: 'listClients',
      summary: 'Clients, a page at a time',
      description: 'Every client in the order of their ids, `limit` at a time from `offset`.',
      querystring: PageQuery,
      response: responses(jsonBody(Type.Array(Client), 'A page of clients', [examples.client]), 'list')
    }
  }, async (request) => await app.ponte.clients.list({ limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }, request.arrival))

  app.get('/clients/search', {
    schema: {
      tags: ['clients'],
      operationId: 'searchClients',
      summary: 'Clients whose phone, CPF, e-mail or name equals the term (normalised)',
      description: 'Finds clients by what a caller knows: a phone in any format, a CPF with or without its mask, an e-mail or a name, compared after normalising both sides. No match is an empty list.',
      querystring: ClientSearchQuery,
      response: responses(jsonBody(Type.Array(Client), 'The clients found (none: an empty list)', [examples.client]), 'list')
    }
  }, async (request) => await app.ponte.clients.search(request.query.term, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }, request.arrival))

  app.get('/clients/:id', {
    schema: {
      tags: ['clients'],
      operationId: 'getClient',
      summary: 'One client',
      description: 'The client with this id; 404 when there is none.',
      params: ByIdParams,
      response: responses(jsonBody(Client, 'The client', examples.client), 'detail')
    }
  }, async (request) => await app.ponte.clients.get(request.params.id, request.arrival))

  app.post('/clients', {
    config: { idempotent: true },
    schema: {
      tags: ['clients'],
      operationId: 'createClient',
      summary: 'Register a client',
      description: 'Registers a new client with a name and a phone (and whatever else this installation stores). Fields accepted but not stored are named in `Ponte-Ignored-Fields`. Send an `Idempotency-Key` to make a retry safe.',
      body: NewClientBody,
      response: responses(jsonBody(Client, 'The registered client', examples.client, 'create'), 'create')
    }
  }, async (request, reply) => answerStored(reply, await app.ponte.clientWrites.create(request.body, request.arrival)))

  app.patch('/clients/:id', {
    schema: {
      tags: ['clients'],
      operationId: 'updateClient',
      summary: 'Change a client (only the keys sent)',
      description: 'Changes the fields sent and leaves the others as they are; the answer is the client as it is now.',
      params: ByIdParams,
      body: ClientPatchBody,
      response: responses(jsonBody(Client, 'The client as it is now', examples.client, 'write'), 'write')
    }
  }, async (request, reply) => answerStored(reply, await app.ponte.clientWrites.update(request.params.id, request.body, request.arrival)))
}

export default clients
