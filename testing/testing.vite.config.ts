// The testing build: testing/e2e-serve.ts bundled alone into out/testing/, beside (never
// inside) the production out/main/. Same main-process settings as electron.vite.config.ts, so it
// runs the same core; e2e/fixtures/testing-build.ts builds it when a spec asks for it.
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { mainBundling } from '../electron.vite.config'

const root = resolve(__dirname, '..')

export default defineConfig({
  main: {
    root,
    build: {
      outDir: resolve(root, 'out/testing'),
      externalizeDeps: mainBundling.externalizeDeps,
      rollupOptions: {
        input: { 'e2e-serve': resolve(root, 'testing/e2e-serve.ts') },
        output: mainBundling.output
      }
    }
  }
})
