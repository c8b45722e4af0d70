import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  CancelledNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  type ElicitRequestFormParams,
  type ElicitResult,
  type RequestId
} from '@modelcontextprotocol/sdk/types.js'

/**
 * Answers a server's `elicitation/create` with `elicit` (forms only; URL mode is refused).
 *
 * The SDK's own cancel handling drops a `notifications/cancelled` whose request id is 0
 * (`if (!requestId) return`), and a server's first request to the client has id 0: its cancel
 * would leave the form open for good. So the cancels are matched here by id, 0 included. The
 * handler replaced served only to abort handlers still running, and the elicitation is the one
 * server request here that waits (roots/list answers at once).
 */
export function handleElicitation(
  client: Client,
  elicit: (params: ElicitRequestFormParams, signal: AbortSignal) => Promise<ElicitResult>
): void {
  const asking = new Map<RequestId, AbortController>()
  client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const id = notification.params.requestId
    if (id !== undefined) asking.get(id)?.abort(notification.params.reason)
  })
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params
    if (params.mode === 'url') {
      throw new McpError(
        ErrorCode.InvalidParams,
        'Mecatl does not support URL-mode elicitation; ask with a form (mode "form") instead.'
      )
    }
    // One signal for both ends: the SDK's (the connection closed) and the cancel matched here.
    const cancel = new AbortController()
    const onClosed = (): void => cancel.abort(extra.signal.reason)
    if (extra.signal.aborted) onClosed()
    else extra.signal.addEventListener('abort', onClosed, { once: true })
    asking.set(extra.requestId, cancel)
    try {
      return await elicit(params, cancel.signal)
    } finally {
      asking.delete(extra.requestId)
      extra.signal.removeEventListener('abort', onClosed)
    }
  })
}
