/** What `mecatl` exits with; the README's command-line section lists them. */
export const ExitCode = {
  ok: 0,
  /** The command ran and failed: a turn failed, a call returned an error, a record was lost. */
  failed: 1,
  /**
   * The command line or the settings file is wrong; nothing ran. A `prefix_tools: false` MCP
   * server whose tool takes a registered name is a settings mistake too.
   */
  usage: 2,
  /** `run` stopped the model at its step limit before it finished. */
  maxSteps: 3,
  /**
   * Stopped by Ctrl-C (SIGINT), as shells report it (128 + 2): `run` once its turn is recorded as
   * cancelled and the core has stopped; any command at once on a second signal while it stops.
   */
  cancelled: 130,
  /**
   * Stopped by SIGTERM, as shells report it (128 + 15): `run` after a clean stop, as for Ctrl-C;
   * any command at once on a second signal while it stops. `serve` exits 0 after a clean stop.
   */
  terminated: 143
} as const

/** The exit code for a stop by `signal`: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): number {
  return signal === 'SIGINT' ? ExitCode.cancelled : ExitCode.terminated
}

/**
 * Ends the process once stdout and stderr have handed everything to the OS. Writes to a pipe are
 * asynchronous in Node, so `process.exit()` straight after a large `console.log` cuts the output
 * at the pipe's buffer (65,536 bytes) and a script reading `sessions export` gets a fragment with
 * exit 0. The exit stays explicit because SDK keep-alive sockets would otherwise hold a finished
 * command open. A reader that went away (`| head`) is not an error of ours: its EPIPE ends the
 * wait quietly.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  process.exitCode = code
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit(code)
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) {
      resolve()
      return
    }
    stream.once('error', () => resolve())
    // The callback of an empty write runs once every earlier write has been flushed.
    stream.write('', () => resolve())
  })
}
