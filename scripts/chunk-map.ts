// What the renderer build is made of, chunk by chunk: the minified bundles no longer name their
// modules, so the build writes this map beside them (out/renderer-chunks.json, outside the folder
// the window is served from) for the production-build check and the first-paint bench to read.
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

/** One JavaScript chunk of the renderer build. */
export interface ChunkEntry {
  /** Its path under out/renderer, as the page asks for it. */
  file: string
  bytes: number
  /** The page's own script: what index.html loads. */
  isEntry: boolean
  /** Loaded by an import() on first use. */
  isDynamicEntry: boolean
  /** The chunks it imports statically: they load with it. */
  imports: string[]
  dynamicImports: string[]
  /** The stylesheets that load with it. */
  css: string[]
  /** Its source modules, repository-relative (`src/…`, `node_modules/…`). */
  modules: string[]
}

export interface ChunkMap {
  chunks: ChunkEntry[]
}

/** Where the renderer's map is written, under the repository's root. */
export const chunkMapFile = 'out/renderer-chunks.json'

/** The build plugin that writes the map once the renderer's bundles are on disk. */
export function chunkMap(root: string): Plugin {
  return {
    name: 'mecatl-chunk-map',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.join(root, 'out/renderer')
      const relative = (id: string): string => path.relative(root, id).split(path.sep).join('/')
      const chunks: ChunkEntry[] = []
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        chunks.push({
          file: output.fileName,
          bytes: statSync(path.join(dir, output.fileName)).size,
          isEntry: output.isEntry,
          isDynamicEntry: output.isDynamicEntry,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          css: [...(output.viteMetadata?.importedCss ?? [])],
          // Virtual modules (the runtime, the preload helper) start with a NUL and name no file.
          modules: output.moduleIds.filter((id) => !id.startsWith('\0')).map(relative)
        })
      }
      writeFileSync(path.join(root, chunkMapFile), `${JSON.stringify({ chunks }, null, 2)}\n`)
    }
  }
}

/** The map of the last renderer build; throws, saying what to run, when there is none. */
export function readChunkMap(root: string): ChunkMap {
  const file = path.join(root, chunkMapFile)
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ChunkMap
  } catch (error) {
    throw new Error(`no renderer chunk map at ${file} (run \`node scripts/ensure-built.mjs\`)`, {
      cause: error
    })
  }
}

/**
 * What a window loads before it can paint: the entry chunk and every chunk it imports
 * statically, transitively. This is "the main chunk" the size goal speaks of: a piece the entry
 * imports statically is paid for at start whatever its file is called.
 */
export function firstLoadChunks(map: ChunkMap): ChunkEntry[] {
  const byFile = new Map(map.chunks.map((chunk) => [chunk.file, chunk]))
  const entries = map.chunks.filter((chunk) => chunk.isEntry)
  if (entries.length !== 1) {
    throw new Error(`the renderer has ${entries.length} entry chunks; expected one`)
  }
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of byFile.get(file)?.imports ?? []) visit(next)
  }
  visit(entries[0]?.file ?? '')
  return [...seen].map((file) => {
    const chunk = byFile.get(file)
    if (!chunk) throw new Error(`the renderer chunk map names ${file} but does not list it`)
    return chunk
  })
}

/** The sum of the chunks' sizes in bytes. */
export function bytesOf(chunks: readonly ChunkEntry[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.bytes, 0)
}
