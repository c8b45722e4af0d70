import path from 'node:path'
import { createCore } from '../src/main/core'
import { createMemoryPair } from '../src/main/rpc/memory-transport'
import { median, report } from './measure'

const CALLS = 2000

/** The cost of the contract: a call validated and carried by a transport, versus the bare work. */
export async function benchRpc(dir: string): Promise<void> {
  const core = await createCore({
    dataDir: path.join(dir, 'home'),
    host: 'cli',
    interactive: false
  })
  const client = createMemoryPair(core.router, core.hub)
  const viaTransport = await median(async () => {
    for (let i = 0; i < CALLS; i++) await client.call('tools.list', {})
  })
  const bare = await median(async () => {
    for (let i = 0; i < CALLS; i++) await Promise.resolve({ tools: core.catalog.describe() })
  })
  report(
    `rpc: ${CALLS} tools.list calls through the router`,
    viaTransport,
    'the handler work alone',
    bare
  )
  client.close()
  await core.dispose()
}
