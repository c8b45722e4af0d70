import { calls, isCallName, RpcError } from '../../shared/contract'
import type { CallResponse } from '../../shared/contract/bridge'
import type { CallContext, Handlers } from '../../shared/contract/handlers'

export interface Router {
  handle(method: string, input: unknown, ctx: CallContext): Promise<CallResponse>
}

/**
 * Validates every input against the contract before its handler runs; a bad input or an unknown
 * method is a typed error answer, and nothing a handler throws escapes as a crash.
 */
export function createRouter(handlers: Handlers): Router {
  return {
    async handle(method, input, ctx) {
      if (!isCallName(method)) {
        return failure(new RpcError('unknown_method', `there is no call named ${String(method)}`))
      }
      const spec = calls[method]
      const parsed = spec.input.safeParse(input ?? {})
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          path: issue.path.map(String).join('.') || '(input)',
          message: issue.message
        }))
        const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
        return failure(
          new RpcError('invalid_input', `invalid input for ${method}: ${summary}`, issues)
        )
      }
      try {
        const handler = handlers[method] as (input: unknown, ctx: CallContext) => Promise<unknown>
        const result = await handler(parsed.data, ctx)
        return { ok: true, result }
      } catch (error) {
        if (error instanceof RpcError) return failure(error)
        console.error(`call ${method} failed:`, error)
        const message = error instanceof Error ? error.message : String(error)
        return failure(new RpcError('internal', `${method} failed: ${message}`))
      }
    }
  }
}

function failure(error: RpcError): CallResponse {
  return { ok: false, error: error.toBody() }
}
