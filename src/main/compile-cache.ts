import module from 'node:module'

/**
 * Turns on V8's compile cache for every module this process loads from here on, where the
 * runtime has it (Node 22.1 and later, so Electron 42; Node 20 has not, and starts without it).
 * A start spends more of its time compiling the bundle and its packages than running them; with
 * the cache, a start after the first reads the compiled code back instead, from Node's default
 * folder (`node-compile-cache` in the system temp folder, or NODE_COMPILE_CACHE), which Node
 * keys by file contents and V8 version. Call it first thing in an entry, before it loads the rest.
 */
export function enableCompileCache(): void {
  const nodeModule = module as { enableCompileCache?: () => unknown }
  try {
    nodeModule.enableCompileCache?.()
  } catch {
    // A cache that cannot be set up (a read-only temp folder) only costs the speed it would give.
  }
}
