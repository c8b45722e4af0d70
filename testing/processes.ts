// Cleanup for tests that start processes meant to die: whatever is still alive is killed, so a
// failing test cannot leave sleepers behind. Not shipped: only test files import it.

/** SIGKILLs each pid still running; never 0 or below, which would signal whole process groups. */
export function killLeftovers(pids: readonly number[]): void {
  for (const pid of pids) {
    if (!(pid > 0)) continue
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone, as it should be.
    }
  }
}
