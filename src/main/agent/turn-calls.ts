import type { ModelToolCall } from '../providers/provider'
import type { SpillStore } from '../workspace/spill'
import type { RequestedCall } from './dispatcher'

/** Arguments past this size are refused unread, so the model sends the work in parts. */
export const MAX_ARGUMENT_BYTES = 10 * 1024 * 1024

const MIB = 1024 * 1024

/** A call of one reply, with its identity in the session and the id it goes by on the wire. */
export interface TurnCall extends RequestedCall {
  wireId: string
  input: string
}

/** Where a reply stands: its turn, its step in the turn, and the session's spill directory. */
export interface ReplyPlace {
  turnId: string
  step: number
  spill: SpillStore
}

/**
 * Gives each call of a reply its identity, `<turnId>:<step>:<index>`: providers' ids are not
 * identities (some servers number calls per reply, send the same id twice, or send none), so
 * they are kept only to be sent back, made unique within the reply because results pair with
 * calls by them. Arguments over MAX_ARGUMENT_BYTES are refused here, before anything parses
 * them, and replaced by a short stand-in everywhere (card, record, history) after being saved
 * once, whole, in the spill directory.
 */
export async function identifyCalls(
  calls: readonly ModelToolCall[],
  place: ReplyPlace
): Promise<TurnCall[]> {
  const taken = new Set<string>()
  const out: TurnCall[] = []
  for (const [index, call] of calls.entries()) {
    const id = `${place.turnId}:${place.step}:${index}`
    const wireId = uniqueWireId(call.id, taken, place, index)
    const bytes = Buffer.byteLength(call.input)
    if (bytes <= MAX_ARGUMENT_BYTES) {
      out.push({ id, wireId, name: call.name, input: call.input })
      continue
    }
    out.push({ id, wireId, name: call.name, ...(await refuseOversized(call, id, bytes, place)) })
  }
  return out
}

/** The calls as the provider is told of them again: its own ids, stand-ins for refused input. */
export function wireCalls(calls: readonly TurnCall[]): ModelToolCall[] {
  return calls.map((call) => ({ id: call.wireId, name: call.name, input: call.input }))
}

function uniqueWireId(given: string, taken: Set<string>, place: ReplyPlace, index: number): string {
  const base = given.trim()
    ? given
    : `call_${place.turnId.replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}_${place.step}_${index}`
  let wireId = base
  for (let n = 2; taken.has(wireId); n++) wireId = `${base}_${n}`
  taken.add(wireId)
  return wireId
}

async function refuseOversized(
  call: ModelToolCall,
  id: string,
  bytes: number,
  place: ReplyPlace
): Promise<{ input: string; refused: string }> {
  const size = `${(bytes / MIB).toFixed(1)} MiB`
  const limit = `${MAX_ARGUMENT_BYTES / MIB} MiB`
  let saved: string | null = null
  try {
    saved = await place.spill.save(`${id}-arguments`, call.input)
  } catch {
    // Kept nowhere then: the call is refused either way, and the card says how large it was.
  }
  const note = `${size} of arguments, over the ${limit} limit: not run${saved ? `; saved whole at ${saved}` : ''}`
  const hint =
    call.name === 'Write'
      ? 'write the file in parts (Write a first part, then extend it with Edit)'
      : 'send the work in several smaller calls'
  return {
    input: JSON.stringify({ omitted: note }),
    refused: `The arguments of this ${call.name} call are ${size}; the limit is ${limit}: ${hint}. Nothing was run.`
  }
}
