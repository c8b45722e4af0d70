import { z } from 'zod'

/** Error codes a call can answer with; a transport never invents others. */
export const rpcErrorCodeSchema = z.enum([
  'invalid_input',
  'unknown_method',
  'not_found',
  'unsupported',
  'conflict',
  'internal'
])
export type RpcErrorCode = z.infer<typeof rpcErrorCodeSchema>

export const rpcErrorSchema = z.object({
  code: rpcErrorCodeSchema,
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional()
})
export type RpcErrorBody = z.infer<typeof rpcErrorSchema>

/** Frames from a client (renderer, CLI) to the router. */
export const clientFrameSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('call'),
    id: z.number().int(),
    method: z.string(),
    input: z.unknown()
  }),
  // Sent once the client has subscribed: events are queued for it until then.
  z.object({ kind: z.literal('ready') })
])
export type ClientFrame = z.infer<typeof clientFrameSchema>

/** Frames from the router to a client. */
export const serverFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), id: z.number().int(), result: z.unknown() }),
  z.object({ kind: z.literal('error'), id: z.number().int(), error: rpcErrorSchema }),
  z.object({ kind: z.literal('event'), event: z.string(), payload: z.unknown() })
])
export type ServerFrame = z.infer<typeof serverFrameSchema>

/** A failed call as the caller sees it: a code it can branch on and a message a person can read. */
export class RpcError extends Error {
  readonly code: RpcErrorCode
  readonly issues: RpcErrorBody['issues']

  constructor(code: RpcErrorCode, message: string, issues?: RpcErrorBody['issues']) {
    super(message)
    this.name = 'RpcError'
    this.code = code
    this.issues = issues
  }

  toBody(): RpcErrorBody {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message }
  }
}
