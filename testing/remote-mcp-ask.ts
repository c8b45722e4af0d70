// The fixture's `ask` tool: a tool call that asks the client's person for input in the middle of
// the call (elicitation, form mode) and returns what came back, as a real server would.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

/** The form `ask` shows when a test gives none: one required name. */
export const ASK_FORM: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Your name', minLength: 1 } },
  required: ['name']
}

/**
 * Registers `ask(message)`: it sends `elicitation/create` tied to its own call (so it travels on
 * that call's stream, and the call's cancel cancels it) and answers with the client's reply as
 * JSON, or with the client's refusal as an error.
 */
export function registerAskTool(
  server: McpServer,
  form: ElicitRequestFormParams['requestedSchema'] = ASK_FORM
): void {
  server.registerTool(
    'ask',
    {
      description: 'Asks the person a question through the client and returns the answer.',
      inputSchema: { message: z.string() }
    },
    async ({ message }, extra) => {
      try {
        const result = await server.server.elicitInput(
          { mode: 'form', message, requestedSchema: form },
          { relatedRequestId: extra.requestId, signal: extra.signal, timeout: 110_000 }
        )
        return { content: [{ type: 'text', text: `server got: ${JSON.stringify(result)}` }] }
      } catch (error) {
        const text = `the client refused: ${error instanceof Error ? error.message : String(error)}`
        return { content: [{ type: 'text', text }], isError: true }
      }
    }
  )
}
