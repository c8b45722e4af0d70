import type { McpStatus } from '../../shared/mcp'

/**
 * What the CLI prints on stderr about MCP servers that give no tools: failed (the error carries
 * the last lines the server printed), waiting for sign-in, not trusted, or project-file problems.
 * Empty when all is well.
 */
export function mcpProblems(status: McpStatus): string[] {
  const lines: string[] = []
  for (const issue of status.issues) lines.push(`mecatl: ${issue.path}: ${issue.message}`)
  for (const server of status.servers) {
    if (server.state === 'failed') {
      lines.push(`mecatl: MCP server "${server.name}" failed: ${server.error ?? 'unknown error'}`)
    } else if (server.state === 'needs-sign-in') {
      lines.push(
        `mecatl: MCP server "${server.name}" is left out: ${server.error ?? 'it needs you to sign in'} (in the window)`
      )
    } else if (server.state === 'untrusted') {
      const what = server.url ?? [server.command ?? '', ...server.args].join(' ')
      lines.push(
        `mecatl: MCP server "${server.name}" from ${status.projectFile ?? 'the project'} is not trusted, so it was not started (${what}); trust it in the window, or pass --trust-project`
      )
    }
  }
  return lines
}
