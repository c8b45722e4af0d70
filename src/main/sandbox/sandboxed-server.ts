/** The MCP server a backend is asked to confine: its command and its own network choice. */
export interface SandboxedServer {
  name: string
  command: string
  args: readonly string[]
  network?: 'off' | 'allowlist' | 'on'
}

/**
 * Confines a server's process: turns its command into one that runs it inside the sandbox, or
 * throws SandboxUnavailable saying why it cannot (the server then does not start).
 */
export interface SandboxBackend {
  wrap(server: SandboxedServer, cwd: string): Promise<{ command: string; args: string[] }>
}

/** A `sandbox: true` server that cannot be confined here, said with the two ways forward. */
export class SandboxUnavailable extends Error {
  constructor(server: string, why: string) {
    super(
      `MCP server \`${server}\` is configured with \`sandbox: true\`, but no sandbox backend is available (${why}). Install it, or set \`sandbox: false\` to accept that it runs unconfined.`
    )
    this.name = 'SandboxUnavailable'
  }
}

/** Why a sandboxed server was not started when no backend was given at all. */
export function sandboxMissing(server: string): string {
  return new SandboxUnavailable(server, `none is set up for ${process.platform}`).message
}
