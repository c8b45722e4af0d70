// A model server on loopback that starts a real OpenAI or Anthropic stream (the frames the e2e
// fake server sends) and then breaks it: it stops sending, resets the connection, or sends
// something that is not a stream at all. Not shipped: only test files import it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anthropicStreamEvents } from './fake-model-anthropic'
import { openAIStreamPayloads } from './fake-model-openai'

/**
 * What the server does to each chat request: `stall` sends the first half of a reply's frames
 * and then nothing, `silent` never answers at all, `reset` sends the first half and resets the
 * socket (RST), `garbage` sends an event whose data is not JSON, `html` answers a web page.
 */
export type Breakage = 'stall' | 'silent' | 'reset' | 'garbage' | 'html'

/** The server's addresses for each SDK, and what it has seen. */
export interface BrokenModelServer {
  openaiBaseUrl: string
  anthropicBaseUrl: string
  /** The text of the reply the frames carry; a broken stream delivers its first half or so. */
  readonly text: string
  /** Chat requests received. */
  readonly requests: number
  close(): Promise<void>
}

export const TEXT = 'The first words arrived. Then the rest of the reply was lost on the way here.'

/** Starts the server on 127.0.0.1 with a random port; every chat request meets `breakage`. */
export async function startBrokenModelServer(breakage: Breakage): Promise<BrokenModelServer> {
  let requests = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      answer(req, res, breakage)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    openaiBaseUrl: `${url}/openai/v1`,
    anthropicBaseUrl: `${url}/anthropic`,
    text: TEXT,
    get requests() {
      return requests
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The SSE frames of the whole reply carrying `TEXT`, in the Anthropic or OpenAI format. */
export function frames(anthropic: boolean): string[] {
  if (anthropic) {
    const events = anthropicStreamEvents(
      { text: TEXT },
      {
        messageId: 'msg_broken',
        model: 'fake-model',
        toolCalls: [],
        usage: { input: 10, output: 10, cached: 0 }
      }
    )
    return events.map((e) => `event: ${e.event}\ndata: ${e.data}\n\n`)
  }
  const payloads = openAIStreamPayloads(
    { text: TEXT },
    {
      completionId: 'chatcmpl-broken',
      model: 'fake-model',
      created: 1_735_689_600,
      toolCalls: [],
      usage: { input: 10, output: 10, cached: 0 }
    },
    true
  )
  return payloads.map((data) => `data: ${data}\n\n`)
}

function answer(req: IncomingMessage, res: ServerResponse, mode: Breakage): void {
  if (mode === 'silent') return
  if (mode === 'html') {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<html><body><h1>Welcome to nginx!</h1></body></html>\n')
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const anthropic = (req.url ?? '').startsWith('/anthropic/')
  if (mode === 'garbage') {
    const event = anthropic ? 'event: message_start\n' : ''
    res.write(`${event}data: {"this is": not JSON at all\n\n`)
    return
  }
  const all = frames(anthropic)
  // The first text pieces, then the break: the reply never finishes.
  const half = all.slice(0, Math.ceil(all.length / 2))
  res.write(half.join(''), () => {
    if (mode === 'reset') res.socket?.resetAndDestroy()
  })
}
