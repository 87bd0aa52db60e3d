import { Problem } from './problem.js'

/** The error statuses every interface route may answer, documented in OpenAPI. */
export const errorResponses = {
  400: Problem,
  401: Problem,
  404: Problem,
  503: Problem,
  504: Problem
}
