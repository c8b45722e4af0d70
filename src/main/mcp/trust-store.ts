import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { McpServerSettings } from '../../shared/mcp'
import { writeFileAtomic } from '../workspace/atomic-write'

type Approvals = Record<string, Record<string, string>>

/**
 * A fingerprint of everything that decides what a server runs and with what; `enabled` is left
 * out so turning a server off and on does not ask again.
 */
export function definitionHash(server: McpServerSettings): string {
  const { enabled: _enabled, ...definition } = server
  return createHash('sha256').update(canonicalJson(definition)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * Which project-defined servers the person approved, per project folder, by the hash of the
 * definition they saw: a changed command, argument or variable must be approved again.
 */
export class TrustStore {
  private cache: Approvals | null = null

  constructor(private readonly filePath: string) {}

  async isTrusted(workspace: string, server: McpServerSettings): Promise<boolean> {
    const approvals = await this.read()
    return approvals[workspace]?.[server.name] === definitionHash(server)
  }

  async set(
    workspace: string,
    servers: readonly McpServerSettings[],
    trust: boolean
  ): Promise<void> {
    const approvals = await this.read()
    const project = { ...(approvals[workspace] ?? {}) }
    for (const server of servers) {
      if (trust) project[server.name] = definitionHash(server)
      else delete project[server.name]
    }
    approvals[workspace] = project
    await mkdir(path.dirname(this.filePath), { recursive: true })
    await writeFileAtomic(this.filePath, JSON.stringify(approvals, null, 2))
    this.cache = approvals
  }

  private async read(): Promise<Approvals> {
    if (this.cache) return this.cache
    try {
      const parsed: unknown = JSON.parse(await readFile(this.filePath, 'utf8'))
      this.cache = parsed && typeof parsed === 'object' ? (parsed as Approvals) : {}
    } catch {
      this.cache = {}
    }
    return this.cache
  }
}
