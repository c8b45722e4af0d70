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
      // One stylesheet, loaded with the page: the lazy parts' styles are small, and a stylesheet
      // arriving later would restyle the whole window when a part is first shown.
      cssCodeSplit: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        output: {
          codeSplitting: {
            groups: [
              // Everything the page imports statically is one chunk, the main one: left to
              // itself, rolldown splits what the lazy chunks share with it into small chunks the
              // page then waits on one by one.
              { name: 'index', tags: ['$initial'] },
              // The Settings page and the section each feature lays into it (its *-section.tsx,
              // and the permission rules and sandbox): one chunk, as they load together.
              {
                name: 'settings',
                test: /features[\\/](?:settings-screen[\\/]|[\w-]+[\\/](?:[\w-]+-section|permission-rules|sandbox-settings)\.tsx$)/
              }
            ]
          }
        }
      }
    },
    plugins: [react(), chunkMap(__dirname)]
  }
})
