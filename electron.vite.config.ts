import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { chunkMap } from './scripts/chunk-map'

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // Two programs share one core: the Electron entry and the headless CLI.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/entry.ts')
        }
      }
    }
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: 'src/renderer',
    build: {
      outDir: 'out/renderer',
      // Minified, without source maps: what a window loads before it paints is parsed each time
      // one opens. The terminal, code highlighting and the Settings page are chunks of their own,
      // loaded on first use (see docs/architecture.md, The renderer build).
      minify: true,
      sourcemap: false,
      // The goal for the main chunk (see the first-paint bench): the build says when it is passed.
      chunkSizeWarningLimit: 700,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // Everything the page imports statically is one chunk, the main one: left to itself,
        // rolldown splits what the lazy chunks share with it into small chunks the page then
        // waits on one by one.
        output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } }
      }
    },
    plugins: [react(), chunkMap(__dirname)]
  }
})
