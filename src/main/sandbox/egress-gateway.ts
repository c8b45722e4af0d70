import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import bridgeSource from './proxy-bridge.mjs?raw'
import { startEgressProxy, type EgressProxy } from './egress-proxy'

/** What a confined command needs to leave through the proxy: where to reach it, and how. */
export interface EgressRoute {
  /** The proxy's port; the bridge listens on the same one inside the sandbox. */
  port: number
  /** A folder only Mecatl can enter, bound into the sandbox: the socket and the bridge. */
  dir: string
  socketPath: string
  bridgePath: string
}

/**
 * The one egress proxy of a core, started when a command first needs `network: allowlist`,
 * with the allowed hosts of that command's settings (a changed list applies to open flows too).
 */
export class EgressGateway {
  private opened: Promise<{ proxy: EgressProxy; route: EgressRoute }> | null = null

  async route(allowedHosts: readonly string[]): Promise<EgressRoute> {
    this.opened ??= this.open(allowedHosts)
    const { proxy, route } = await this.opened
    proxy.setAllowedHosts(allowedHosts)
    return route
  }

  async close(): Promise<void> {
    const opened = this.opened
    this.opened = null
    if (!opened) return
    const { proxy, route } = await opened.catch(() => ({ proxy: null, route: null }))
    await proxy?.close()
    if (route) await rm(route.dir, { recursive: true, force: true })
  }

  private async open(
    allowedHosts: readonly string[]
  ): Promise<{ proxy: EgressProxy; route: EgressRoute }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-egress-'))
    await chmod(dir, 0o700)
    const bridgePath = path.join(dir, 'proxy-bridge.mjs')
    await writeFile(bridgePath, bridgeSource, { mode: 0o600 })
    const socketPath = path.join(dir, 'proxy.sock')
    const proxy = await startEgressProxy({ allowedHosts, socketPath })
    return { proxy, route: { port: proxy.port, dir, socketPath, bridgePath } }
  }
}
