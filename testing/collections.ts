// Garbage collections on demand, for tests of what must survive one (a signal, a listener).
// Not shipped: only test files import it.
import v8 from 'node:v8'
import vm from 'node:vm'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

/** Runs `work` while the collector runs every `everyMs` milliseconds. */
export async function underCollections<T>(work: () => Promise<T>, everyMs = 5): Promise<T> {
  const timer = setInterval(gc, everyMs)
  try {
    return await work()
  } finally {
    clearInterval(timer)
  }
}
