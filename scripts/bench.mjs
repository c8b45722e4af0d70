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
ensureRipgrep()
const result = spawnSync(
  process.execPath,
  [path.join(outDir, 'run.cjs'), ...process.argv.slice(2)],
  {
    stdio: 'inherit'
  }
)
process.exit(result.status ?? 1)

/**
 * The Grep/Glob benchmark compares against ripgrep (Debian's `ripgrep` package). Installed here
 * when missing and this is root on a system with apt-get; otherwise that comparison is skipped
 * with a line saying how to install it.
 */
function ensureRipgrep() {
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0) return
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
  if (!root || !apt) return
  console.log('(installing ripgrep for the Grep/Glob benchmark: apt-get install -y ripgrep)')
  spawnSync('apt-get', ['install', '-y', 'ripgrep'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  })
}
