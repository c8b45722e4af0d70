// `npm start`: builds if needed, then opens the Electron app. When Electron's binary is missing
// and cannot be downloaded (an offline or locked-down machine), it says so and runs browser mode.
// Usage: npm start [-- FOLDER]
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { installCommand, installer, missingPackages } from './system-packages.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const electronDir = path.join(root, 'node_modules', 'electron')
const folder = process.argv.slice(2).find((arg) => !arg.startsWith('-'))
const DOWNLOAD_TIMEOUT_MS = 120_000

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options })
}

function electronBinary() {
  const pathFile = path.join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

function installElectron() {
  const result = run(process.execPath, [path.join(electronDir, 'install.js')], {
    timeout: DOWNLOAD_TIMEOUT_MS
  })
  if (electronBinary()) return { ok: true }
  const output = `${result.stderr ?? ''}${result.stdout ?? ''}`
  const reason =
    output.match(
      /(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo[^\n]*|HTTPError[^\n]*)/
    )?.[0] ??
    output
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ??
    (result.error ? result.error.message : 'the download failed')
  return { ok: false, reason }
}

// Native modules are compiled for Node (tests, CLI); the desktop app needs Electron's ABI.
function rebuildNativeForElectron() {
  const version = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version
  const stamp = path.join(root, 'node_modules', '.mecatl-native-abi')
  const wanted = `electron-${version}`
  // `npm test` rebuilds them for Node when it finds them built for Electron; if Node can load
  // them, they are Node's again, whatever the stamp says.
  const loadsInNode = run(process.execPath, ['-e', "require('better-sqlite3')"]).status === 0
  if (!loadsInNode && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return true
  console.log(`Rebuilding native modules for Electron ${version}...`)
  const result = run('npm', ['rebuild', 'better-sqlite3', 'node-pty'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      npm_config_runtime: 'electron',
      npm_config_target: version,
      npm_config_disturl: 'https://electronjs.org/headers',
      npm_config_build_from_source: 'true'
    }
  })
  if (result.status !== 0) return false
  writeFileSync(stamp, wanted)
  return true
}

function startBrowserMode(sentence) {
  console.log(sentence)
  const args = [path.join(root, 'out', 'main', 'cli.js'), 'serve']
  if (folder) args.push('--workspace', folder)
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' })
  const stop = (signal) => child.kill(signal)
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  child.on('exit', (code) => process.exit(code ?? 0))
}

const build = run(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], {
  stdio: 'inherit'
})
if (build.status !== 0) process.exit(build.status ?? 1)

// Shell refuses every command without its sandbox; say so now, with the fix, not at the first one.
if (process.platform === 'linux' && missingPackages().some((pkg) => pkg.name === 'bubblewrap')) {
  const how = installer()
  console.log(
    'Shell runs commands in a bubblewrap sandbox, which is not installed, so it will refuse them: ' +
      (how.apt
        ? `run \`${installCommand(['bubblewrap'], how)}\``
        : "install your system's bubblewrap package") +
      ', or choose "No sandbox" in Settings → Permissions.'
  )
}

let binary = electronBinary()
let reason = null
if (!binary) {
  console.log('Fetching the Electron binary (first start only)...')
  const installed = installElectron()
  binary = installed.ok ? electronBinary() : null
  reason = installed.reason
}

if (!binary) {
  startBrowserMode(
    `Electron's binary is not installed and could not be downloaded (${reason}), so Mecatl is starting in browser mode instead: open the address below.`
  )
} else if (!rebuildNativeForElectron()) {
  startBrowserMode(
    'The native modules could not be rebuilt for Electron (see the errors above), so Mecatl is starting in browser mode instead: open the address below.'
  )
} else {
  const child = spawn(binary, [root, ...(folder ? [path.resolve(folder)] : [])], {
    cwd: root,
    stdio: 'inherit'
  })
  child.on('exit', (code) => process.exit(code ?? 0))
}
