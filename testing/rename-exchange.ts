// Drives rename-exchange.py for race tests: two names swapped atomically in a tight loop.
// Not shipped: only test files import it.
import { spawn } from 'node:child_process'
import path from 'node:path'

const script = path.join(__dirname, 'rename-exchange.py')

/** A running swapper: stop it to learn how many swaps it made. */
export interface SwapRace {
  /** Stops the swapping (SIGTERM) and resolves with the number of swaps made. */
  stop(): Promise<number>
}

/**
 * Starts swapping `first` and `second` with renameat2(RENAME_EXCHANGE), at most `maxSwaps`
 * times, and resolves once the first swap has worked. Rejects, loudly, when python3 or
 * renameat2 is unavailable: a race test that cannot race must fail, never pass quietly.
 */
export function startSwapRace(first: string, second: string, maxSwaps: number): Promise<SwapRace> {
  const child = spawn('python3', [script, first, second, String(maxSwaps)], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  const swapsMade = async (): Promise<number> => {
    const code = await exited
    const swaps = /^swaps (\d+)$/m.exec(stdout)
    if (code !== 0 || swaps === null) {
      throw new Error(`the rename-exchange helper failed (exit ${code}): ${stderr.trim()}`)
    }
    return Number(swaps[1])
  }
  return new Promise((resolve, reject) => {
    child.on('error', (error) =>
      reject(new Error(`python3 is needed to run the swap race: ${error.message}`))
    )
    const onData = (): void => {
      if (!stdout.startsWith('ready\n')) return
      child.stdout.off('data', onData)
      resolve({
        stop: () => {
          if (child.exitCode === null) child.kill('SIGTERM')
          return swapsMade()
        }
      })
    }
    child.stdout.on('data', onData)
    exited.then(() =>
      swapsMade().then(() => reject(new Error('the swapper stopped before it was ready')), reject)
    )
  })
}
