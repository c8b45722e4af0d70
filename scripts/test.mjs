// `npm test`: the system packages the tests drive (installed when missing, see
// system-packages.mjs), then typecheck, lint, unit tests, integration tests, build, end-to-end
// tests, in that order, stopping at the first failure. Ends with one `N passed, N failed` line
// counting the steps, which CI reads; each step's line gives its time, each test step's is
// followed by its ten slowest test or spec files, and a last line gives the whole run's time.
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { slowestFiles, slowestLines, slowestSpecs } from './slowest-files.mjs'
import { ensureSystemPackages } from './system-packages.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
// vitest's JSON report of each vitest step, beside its usual output: the summary ranks files from it.
const unitReport = path.join(os.tmpdir(), `mecatl-unit-report-${process.pid}.json`)
const integrationReport = path.join(os.tmpdir(), `mecatl-integration-report-${process.pid}.json`)
// Playwright's JSON report of the e2e step, for its slowest specs.
const e2eReport = path.join(os.tmpdir(), `mecatl-e2e-report-${process.pid}.json`)

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.error) return { ok: false, detail: result.error.message }
  if (result.status !== 0) return { ok: false, detail: `exit ${result.status ?? result.signal}` }
  return { ok: true }
}

// Loads each native module under this Node, in a child so a crash cannot take this script down.
function nativeModuleErrors() {
  const probes = {
    'better-sqlite3': "new (require('better-sqlite3'))(':memory:').close()",
    'node-pty': "require('node-pty')"
  }
  const errors = {}
  for (const [name, code] of Object.entries(probes)) {
    const result = spawnSync(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' })
    if (result.status !== 0) errors[name] = `${result.stderr ?? ''}${result.error?.message ?? ''}`
  }
  return errors
}

// An `npm start` rebuilds the native modules for Electron's ABI; tests need them built for Node.
function ensureNativeModules() {
  let errors = nativeModuleErrors()
  const names = Object.keys(errors)
  if (names.length === 0) return { ok: true }
  const mismatched = names.filter((name) => errors[name].includes('NODE_MODULE_VERSION'))
  if (mismatched.length !== names.length) {
    for (const name of names)
      console.error(`${name} does not load under Node ${process.version}:\n${errors[name]}`)
    return { ok: false, detail: `native module(s) ${names.join(', ')} do not load` }
  }
  console.log(
    `${names.join(' and ')} ${names.length > 1 ? 'were' : 'was'} built for another Node ABI ` +
      '(an Electron rebuild); running `npm rebuild better-sqlite3 node-pty` for Node ' +
      process.version
  )
  // Offline, node-gyp cannot download Node's headers: point it at the installed ones if it has none.
  const prefix = path.dirname(path.dirname(process.execPath))
  const env = { ...process.env }
  if (
    !env.npm_config_nodedir &&
    existsSync(path.join(prefix, 'include', 'node', 'node_version.h'))
  ) {
    env.npm_config_nodedir = prefix
  }
  const rebuilt = run('npm', ['rebuild', 'better-sqlite3', 'node-pty'], { env })
  if (!rebuilt.ok) return { ok: false, detail: `npm rebuild failed (${rebuilt.detail})` }
  errors = nativeModuleErrors()
  if (Object.keys(errors).length > 0) {
    for (const [name, error] of Object.entries(errors)) console.error(`${name}:\n${error}`)
    return { ok: false, detail: 'native modules still do not load after npm rebuild' }
  }
  return { ok: true }
}

/**
 * One of vitest's projects (vitest.config.mts): unit tests start no process, integration tests
 * do. Its ten slowest files are printed under its line of the summary.
 */
function vitestStep(name, project, report) {
  return {
    name,
    shown: `vitest run --project ${project}`,
    run: () => {
      const native = ensureNativeModules()
      if (!native.ok) return native
      const args = ['run', '--project', project, '--reporter=default', '--reporter=json']
      return run(bin('vitest'), [...args, `--outputFile.json=${report}`])
    },
    after: () => slowestLines(slowestFiles(report, root)).map((line) => `       ${line}`)
  }
}

const steps = [
  {
    name: 'system packages',
    shown: 'chromium ripgrep bubblewrap python3 git',
    run: () => {
      const outcome = ensureSystemPackages()
      if (!outcome.ok) console.error(`npm test: ${outcome.detail}`)
      return outcome
    }
  },
  {
    name: 'typecheck',
    shown: 'tsc -b tsconfig.json',
    run: () => run(bin('tsc'), ['-b', 'tsconfig.json'])
  },
  {
    name: 'lint',
    shown: 'eslint . --max-warnings 0 && prettier --check .',
    run: () => {
      const eslint = run(bin('eslint'), ['.', '--max-warnings', '0'])
      return eslint.ok ? run(bin('prettier'), ['--check', '.', '--log-level', 'warn']) : eslint
    }
  },
  vitestStep('unit tests', 'unit', unitReport),
  vitestStep('integration tests', 'integration', integrationReport),
  {
    name: 'build',
    shown: 'node scripts/ensure-built.mjs',
    run: () => run(process.execPath, ['scripts/ensure-built.mjs'])
  },
  {
    name: 'e2e tests',
    shown: 'playwright test',
    run: () => {
      const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }
      return run(bin('playwright'), ['test', '--reporter=list,json'], { env })
    },
    after: () => slowestLines(slowestSpecs(e2eReport, root)).map((line) => `       ${line}`)
  }
]

const results = []
const begun = Date.now()
for (const step of steps) {
  console.log(`\n=== npm test: ${step.name} (${step.shown}) ===`)
  const started = Date.now()
  const outcome = step.run()
  results.push({ step, outcome, seconds: (Date.now() - started) / 1000 })
  if (!outcome.ok) break
}

const passed = results.filter((r) => r.outcome.ok).length
const failed = results.length - passed
console.log('\n=== npm test summary ===')
for (const { step, outcome, seconds } of results) {
  const mark = outcome.ok ? 'ok  ' : 'FAIL'
  console.log(
    `${mark} ${step.name.padEnd(17)} ${seconds.toFixed(1)}s${outcome.ok ? '' : `  ${outcome.detail}`}`
  )
  for (const line of step.after?.() ?? []) console.log(line)
}
for (const report of [unitReport, integrationReport, e2eReport]) rmSync(report, { force: true })
for (const step of steps.slice(results.length))
  console.log(`skip ${step.name.padEnd(17)} (not run: an earlier step failed)`)
const total = Math.round((Date.now() - begun) / 1000)
console.log(`time ${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s in all`)
// One word before the counts: the form CI reads as the closing line of a test run.
console.log(`npm-test: ${passed} passed, ${failed} failed`)
process.exitCode = failed > 0 ? 1 : 0
