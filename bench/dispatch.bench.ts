import { z } from 'zod'
import { dispatch, type RequestedCall } from '../src/main/agent/dispatcher'
import { Gate, nobodyToAsk } from '../src/main/gate/gate'
import { Catalog } from '../src/main/tools/catalog'
import { defineTool, noCapabilities, textOutput } from '../src/main/tools/tool'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { median, report } from './measure'
import { plainFacts } from '../testing/stand-in-tools'

const CALLS = 8
const IO_MS = 25

// A read-only tool that waits on I/O, as Read does on a slow disk or an MCP server does.
const slowRead = defineTool({
  name: 'SlowRead',
  description: 'waits like I/O',
  inputSchema: z.object({ n: z.number() }),
  readOnly: true,
  capabilities: noCapabilities,
  source: 'bench',
  ...plainFacts('SlowRead', true),
  call: async (input) => {
    await new Promise((resolve) => setTimeout(resolve, IO_MS))
    return textOutput(`done ${input.n}`)
  }
})

/** Several read-only calls in one turn: dispatched together versus one after another. */
export async function benchDispatch(workspace: string): Promise<void> {
  const calls: RequestedCall[] = Array.from({ length: CALLS }, (_, n) => ({
    id: String(n),
    name: 'SlowRead',
    input: { n }
  }))
  const deps = {
    sessionId: 'bench',
    catalog: new Catalog([slowRead]),
    gate: new Gate({ mode: 'allow' }, nobodyToAsk),
    context: {
      sessionId: 'bench',
      jail: new PathJail(workspace),
      reads: new ReadVersions(),
      signal: new AbortController().signal
    },
    onUpdate: () => undefined
  }
  const together = await median(() => dispatch(calls, deps))
  const oneByOne = await median(async () => {
    for (const call of calls) await dispatch([call], deps)
  })
  report(
    `dispatch: ${CALLS} read-only calls in one turn`,
    together,
    'the same calls one by one',
    oneByOne
  )
}
