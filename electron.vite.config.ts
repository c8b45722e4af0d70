import { resolve } from 'node:path'
import { defineConfig, type ExternalOptions } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { chunkMap } from './scripts/chunk-map'

/**
 * How the main process is bundled, by the app's build and by the testing build alike
 * (testing/testing.vite.config.ts). Packages stay in node_modules, except the pure-JavaScript
 * ones every start loads: bundled, they are one file each instead of hundreds (zod is 95 files,
 * openai 154, yaml 72), trimmed to what is used, and compiled with the rest, which roughly halves
 * what they cost a start. Native modules, web-tree-sitter (it finds its WebAssembly beside
 * itself) and what only some commands load (the MCP SDK, undici, ws) stay outside.
 */
export const mainBundling: {
  externalizeDeps: ExternalOptions
  output: { dynamicImportInCjs: boolean; chunkFileNames: string }
} = {
  externalizeDeps: {
    exclude: ['zod', 'yaml', 'openai', '@anthropic-ai/sdk', 'picomatch', 'ignore', 'ipaddr.js']
  },
  output: {
    // A package imported on first use (`await import('openai')`, the MCP SDK) is required like
    // every other: one copy of each package, and no trip through the ES module loader.
    dynamicImportInCjs: false,
    // Beside the entries, not in a folder of their own: code that finds the renderer and the
    // preload from its own file (`__dirname`) lands in a chunk now that commands load on first use.
    chunkFileNames: '[name]-[hash].js'
  }
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: mainBundling.externalizeDeps,
      rollupOptions: {
        // Two programs share one core: the Electron entry and the headless CLI.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/entry.ts')
        },
        output: mainBundling.output
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
