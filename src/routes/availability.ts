// GET /availability: free slots in a closed date range (design notes §1). Installations
// whose mapping has no `availability` block answer 404: the resource does not exist there.
import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Slot } from '../schemas/resources.js'
import { AvailabilityQuery } from '../schemas/queries.js'
import { jsonBody, responses } from '../schemas/responses.js'
import { examples } from '../schemas/examples.js'
import { NotFoundError } from '../errors.js'

const availability: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/availability', {
    schema: {
      tags: ['availability'],
      operationId: 'listFreeSlots',
      summary: 'Free slots in a closed date range (at most 31 days)',
      description: 'The slots that can be booked from `start` to `end`: working hours less blocked time and the slots appointments hold. 404 where this installation\'s mapping does not describe working hours.',
      querystring: AvailabilityQuery,
      response: responses(jsonBody(Type.Array(Slot), 'Free slots, by date and hour', [examples.slot]), 'list', [404])
    }
  }, async (request) => {
    const service = app.ponte.availability
    if (!service?.isMapped()) throw new NotFoundError('Availability is not mapped for this installation.')
    return await service.freeSlots(request.query, request.arrival)
  })
}

export default availability
