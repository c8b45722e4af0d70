import { describe, expect, it } from 'vitest'
import { bytesOf, firstLoadChunks, type ChunkEntry, type ChunkMap } from './chunk-map'

function chunk(file: string, bytes: number, more: Partial<ChunkEntry> = {}): ChunkEntry {
  return {
    file,
    bytes,
    isEntry: false,
    isDynamicEntry: false,
    imports: [],
    dynamicImports: [],
    css: [],
    modules: [],
    ...more
  }
}

describe('firstLoadChunks', () => {
  it('is the entry with what it imports statically, transitively, and no dynamic import', () => {
    const map: ChunkMap = {
      chunks: [
        chunk('index.js', 500, {
          isEntry: true,
          imports: ['shared.js'],
          dynamicImports: ['terminal.js']
        }),
        chunk('shared.js', 40, { imports: ['runtime.js', 'index.js'] }),
        chunk('runtime.js', 1),
        chunk('terminal.js', 300, { isDynamicEntry: true, imports: ['shared.js', 'xterm.js'] }),
        chunk('xterm.js', 200)
      ]
    }
    const first = firstLoadChunks(map)
    expect(first.map((c) => c.file).sort()).toEqual(['index.js', 'runtime.js', 'shared.js'])
    expect(bytesOf(first)).toBe(541)
  })

  it('refuses a map with no entry or two, and one that names a chunk it does not list', () => {
    expect(() => firstLoadChunks({ chunks: [chunk('a.js', 1)] })).toThrow(/0 entry chunks/)
    expect(() =>
      firstLoadChunks({
        chunks: [chunk('a.js', 1, { isEntry: true }), chunk('b.js', 1, { isEntry: true })]
      })
    ).toThrow(/2 entry chunks/)
    expect(() =>
      firstLoadChunks({ chunks: [chunk('a.js', 1, { isEntry: true, imports: ['gone.js'] })] })
    ).toThrow(/names gone\.js/)
  })
})
