// Builds the app with electron-vite when out/ is missing or older than the sources, so `npm start`,
// the CLI and the e2e tests always run what is in src/. `--quiet` hides the build log unless it fails.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const quiet = process.argv.includes('--quiet')
const outputs = [
  'out/main/index.js',
  'out/main/cli.js',
  'out/preload/index.cjs',
  'out/renderer/index.html'
]
const inputs = ['src', 'electron.vite.config.ts', 'package.json', 'resources']

function newest(target) {
  const full = path.join(root, target)
  if (!existsSync(full)) return 0
  const stats = statSync(full)
  if (!stats.isDirectory()) return stats.mtimeMs
  let latest = stats.mtimeMs
  for (const entry of readdirSync(full)) latest = Math.max(latest, newest(path.join(target, entry)))
  return latest
}

function oldestOutput() {
  let oldest = Infinity
  for (const output of outputs) {
    const full = path.join(root, output)
    if (!existsSync(full)) return 0
    oldest = Math.min(oldest, statSync(full).mtimeMs)
  }
  return oldest
}

const sourceTime = Math.max(...inputs.map(newest))
if (oldestOutput() < sourceTime) {
  if (!quiet) console.log('Building Mecatl (electron-vite build)...')
  const bin = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const result = spawnSync(process.execPath, [bin, 'build'], {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8'
  })
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
    console.error('The build failed; fix the errors above and run the command again.')
    process.exit(result.status ?? 1)
  }
}
