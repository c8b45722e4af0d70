import {
  inIndexOrder,
  zeroUsage,
  type ModelToolCall,
  type Provider,
  type StreamRequest,
  type StreamResult
} from './provider'
import {
  excerpt,
  invalidStream,
  onFirstUse,
  withStreamGuard,
  type StreamGuard
} from './stream-guard'

/**
 * What the providers built on an official SDK share: the client made on first use (see
 * onFirstUse), each reply read under a stream guard, and the models listed sorted by id.
 */
export abstract class SdkProvider<Client> implements Provider {
  protected readonly client: () => Promise<Client>

  constructor(
    readonly id: string,
    makeClient: () => Promise<Client>
  ) {
    this.client = onFirstUse(makeClient)
  }

  stream(request: StreamRequest, onText: (delta: string) => void): Promise<StreamResult> {
    return withStreamGuard(request, (guard) => this.read(request, onText, guard))
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = []
    for await (const model of this.models(await this.client(), signal)) ids.push(model.id)
    return ids.sort()
  }

  /** Sends `request` and reads the reply, through `guard`'s fetch and under its signal. */
  protected abstract read(
    request: StreamRequest,
    onText: (delta: string) => void,
    guard: StreamGuard
  ): Promise<StreamResult>

  /** The provider's models, as its SDK pages through them. */
  protected abstract models(client: Client, signal?: AbortSignal): AsyncIterable<{ id: string }>
}

/**
 * A reply as its stream arrives: what it says so far (`result`), its tool calls by the index the
 * stream gives them, and who hears its text as it comes.
 */
export class ReplyInProgress {
  readonly result: StreamResult = {
    text: '',
    toolCalls: [],
    usage: { ...zeroUsage },
    stopReason: ''
  }
  readonly calls = new Map<number, ModelToolCall>()

  constructor(private readonly onText: (delta: string) => void) {}

  /** More of the reply's text. */
  addText(delta: string): void {
    this.result.text += delta
    this.onText(delta)
  }

  /** The reply once its stream has ended: its tool calls in the order of their index. */
  finish(): StreamResult {
    this.result.toolCalls = inIndexOrder(this.calls)
    return this.result
  }
}

/**
 * Reads an SDK's stream of events to its end and returns how many came. Each goes to `apply`,
 * which fills the reply: one it cannot take makes the stream invalid, said as `misfit` ("an event
 * not of the Messages format") and the event's start. `observe`, when given, sees each event
 * first, outside that check: what it throws is the caller's own failure, not the provider's.
 */
export async function readEvents<Event>(
  stream: AsyncIterable<Event>,
  guard: StreamGuard,
  misfit: string,
  apply: (event: Event) => void,
  observe?: (event: Event) => void
): Promise<number> {
  let count = 0
  for await (const event of stream) {
    count++
    observe?.(event)
    try {
      apply(event)
    } catch (error) {
      throw invalidStream(`${misfit}: ${excerpt(event)}`, error)
    }
  }
  // The SDK ends quietly when the request is aborted, the watchdog's abort included.
  if (guard.stalled) throw guard.failure()
  return count
}
