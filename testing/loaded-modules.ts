// What a process recorded by module-log.mjs loaded, as source modules and packages: a file of
// the bundle stands for every module rolldown put in it (the `// src/…` and `// node_modules/…`
// line before each), a file under node_modules for its package. Not shipped: only tests use it.
import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The preload to give a process as `NODE_OPTIONS=--import=<modulePreload>`. */
export const modulePreload = path.resolve(__dirname, 'module-log.mjs')

export interface LoadedModules {
  /** Source modules loaded, repository-relative (`src/main/core.ts`). */
  sources: Set<string>
  /** Packages loaded, from node_modules or bundled (`zod`, `@modelcontextprotocol/sdk`). */
  packages: Set<string>
}

const packageIn = /node_modules\/((?:@[^/]+\/)?[^/]+)\//

/** Reads the log module-log.mjs wrote; `repoRoot` is where `out/` is. */
export function loadedModules(logFile: string, repoRoot: string): LoadedModules {
  const sources = new Set<string>()
  const packages = new Set<string>()
  const out = path.join(repoRoot, 'out') + path.sep
  for (const file of readFileSync(logFile, 'utf8').split('\n').filter(Boolean)) {
    const inPackage = packageIn.exec(file)
    if (inPackage?.[1]) {
      packages.add(inPackage[1])
      continue
    }
    if (!file.startsWith(out)) continue
    const text = readFileSync(file, 'utf8')
    for (const [, module] of text.matchAll(/^\/\/ (src\/\S+\.tsx?)$/gm)) sources.add(module ?? '')
    for (const [, name] of text.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/\s]+)\//gm)) {
      packages.add(name ?? '')
    }
  }
  return { sources, packages }
}
