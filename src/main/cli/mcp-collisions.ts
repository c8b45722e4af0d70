import type { Core } from '../core'

/**
 * A `prefix_tools: false` server whose tool took a name already registered. That setting is a
 * promise of distinct names; running without the server would hide the broken promise, so every
 * command that gives the model tools (tools, call, run, serve) stops instead: exit code 2.
 */
export class McpCollisionError extends Error {
  constructor(sentences: readonly string[]) {
    super(sentences.join('\nmecatl: '))
    this.name = 'McpCollisionError'
  }
}

/**
 * Starts the folder's MCP servers and waits for them; on a name collision, stops the core and
 * throws {@link McpCollisionError} naming each one.
 */
export async function requireDistinctToolNames(core: Core, workspace: string): Promise<void> {
  const collisions = await core.mcp.collisions(workspace)
  if (collisions.length === 0) return
  await core.dispose()
  throw new McpCollisionError(collisions)
}
