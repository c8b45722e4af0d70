// `npm run bench`: bundles bench/run.ts with Vite (the project's own build tool) and runs it on Node.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outDir = path.join(root, 'node_modules', '.cache', 'mecatl-bench')

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    ssr: path.join(root, 'bench', 'run.ts'),
    outDir,
    emptyOutDir: true,
    rollupOptions: { output: { format: 'cjs', entryFileNames: 'run.cjs' } }
  }
})
const result = spawnSync(process.execPath, [path.join(outDir, 'run.cjs')], { stdio: 'inherit' })
process.exit(result.status ?? 1)
