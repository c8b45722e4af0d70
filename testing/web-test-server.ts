import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { outputText, type Tool, type ToolContext, type ToolOutput } from '../src/main/tools/tool'

/** A real HTTP server on 127.0.0.1 for the web tools' tests. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  port: number
  /** Every request path the server saw, in order. */
  seen: string[]
  close(): Promise<void>
}

export async function startLocalServer(handler: http.RequestListener): Promise<LocalServer> {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A session context for web tools (they use only the session id and the signal). */
export function webContext(sessionId = 's1'): ToolContext {
  return {
    sessionId,
    jail: new PathJail(os.tmpdir()),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
}

/** Calls a tool as the dispatcher does: input parsed by its schema first. */
export async function runTool(tool: Tool, input: unknown, ctx = webContext()): Promise<ToolOutput> {
  return tool.call(tool.inputSchema.parse(input), ctx)
}

export function textOf(output: ToolOutput): string {
  return outputText(output.content)
}
