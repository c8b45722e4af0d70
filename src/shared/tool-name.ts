const PREFIX = 'mcp__'

/**
 * A tool's name as a person reads it: an MCP tool registered as `mcp__<server>__<tool>` reads
 * "server › tool". Only the window shows this; the model is always sent the registered name.
 * Anything that does not split into a server and a tool is shown as it is.
 */
export function displayToolName(name: string): string {
  if (!name.startsWith(PREFIX)) return name
  const rest = name.slice(PREFIX.length)
  const cut = rest.indexOf('__')
  if (cut <= 0) return name
  const server = rest.slice(0, cut)
  const tool = rest.slice(cut + 2)
  return tool ? `${server} › ${tool}` : name
}
