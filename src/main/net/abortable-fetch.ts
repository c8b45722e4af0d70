/**
 * fetch whose response body obeys the request's signal.
 *
 * Node 20's fetch follows a request's signal through a controller it holds only weakly: after a
 * garbage collection, aborting the signal may no longer reach a body still being read, so a
 * server that sent its headers and then went quiet keeps the read (and the turn waiting on it)
 * forever. Here the body is piped through a stream that the signal itself stops: the pipe holds
 * its listener on the signal, so an abort always cancels the connection and fails the read with
 * the signal's reason.
 */
export async function abortableFetch(
  input: string | URL | Request,
  init?: RequestInit
): Promise<Response> {
  const response = await fetch(input, init)
  const signal = init?.signal
  if (!signal || !response.body) return response
  return withBody(response, response.body.pipeThrough(new TransformStream(), { signal }))
}

/** `response` with `body` in place of its own (status and headers kept). */
export function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers
  })
}
