/** Confines a server's process: turns its command into one that runs it inside the sandbox. */
export interface SandboxBackend {
  readonly name: string
  wrap(command: string, args: readonly string[], cwd: string): { command: string; args: string[] }
}

/**
 * The sandbox available on this machine. None is implemented yet, so a server configured with
 * `sandbox: true` is refused rather than run unconfined.
 */
export function findSandbox(): SandboxBackend | null {
  return null
}

/** Why a sandboxed server was not started, and the two ways forward. */
export function sandboxMissing(server: string): string {
  return `"${server}" asks for sandbox: true, but no sandbox backend is available on this machine (${process.platform}), so it was not started: it never runs unconfined. Set sandbox: false for "${server}" to run it without confinement, or disable it.`
}
