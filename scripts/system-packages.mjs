// The system programs the suite drives for real, and how `npm test` gets the missing ones: the way
// `playwright install --with-deps` does, through apt when it runs as root on a system with apt-get
// (saying so in one line), otherwise by stopping before anything runs with the one command to type.
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * What the suite needs, by the Debian package that brings it. `program` is looked up on PATH,
 * except Chromium, which is a path (MECATL_CHROMIUM, or where Debian's package puts it).
 */
export function requiredPackages(env = process.env, debianChromium = DEBIAN_CHROMIUM) {
  return [
    {
      name: 'chromium',
      for: 'the end-to-end tests',
      path: env.MECATL_CHROMIUM ?? debianChromium,
      // A Chromium of the person's own choosing is theirs to install: apt cannot put it there.
      installable: env.MECATL_CHROMIUM === undefined
    },
    { name: 'ripgrep', for: "Grep's tests (both engines)", program: 'rg', installable: true },
    { name: 'bubblewrap', for: "the sandbox's tests", program: 'bwrap', installable: true },
    { name: 'python3', for: "the sandbox's attack tests", program: 'python3', installable: true },
    { name: 'git', for: 'the checkpoints', program: 'git', installable: true }
  ]
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(program, env) {
  return (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => executable(path.join(dir, program)))
}

/** The packages of `requiredPackages` whose program is not there. */
export function missingPackages(env = process.env, debianChromium = DEBIAN_CHROMIUM) {
  return requiredPackages(env, debianChromium).filter((pkg) =>
    pkg.path ? !executable(pkg.path) : !onPath(pkg.program, env)
  )
}

/** How this machine can install Debian packages: as root through apt-get, or not by us. */
export function installer(env = process.env) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  return { root, apt: onPath('apt-get', env) }
}

/** The one command a person runs to install `names` themselves. */
export function installCommand(names, { root } = installer()) {
  return `${root ? '' : 'sudo '}apt-get install -y ${names.join(' ')}`
}

/**
 * Installs what is missing when it can (root with apt-get), or answers why not with the command
 * to run. `run` is spawnSync's shape, so a test can watch what would be run.
 */
export function ensureSystemPackages({
  env = process.env,
  log = console.log,
  run = spawnSync,
  how = installer(env),
  debianChromium = DEBIAN_CHROMIUM
} = {}) {
  const missing = missingPackages(env, debianChromium)
  if (missing.length === 0) return { ok: true, installed: [] }
  const describe = missing.map((pkg) => `${pkg.name} (${pkg.for})`).join(', ')
  const foreign = missing.filter((pkg) => !pkg.installable)
  if (foreign.length > 0) {
    const detail = `MECATL_CHROMIUM is set to ${foreign[0].path}, which is not an executable: point it at a Chromium binary, or unset it to use Debian's`
    return { ok: false, detail }
  }
  const names = missing.map((pkg) => pkg.name)
  if (!how.root || !how.apt) {
    const detail =
      `missing ${describe}: run \`${installCommand(names, how)}\`, then npm test again` +
      (how.apt ? '' : ' (or install the same packages with your system package manager)')
    return { ok: false, detail }
  }
  log(`npm test: installing ${names.join(' ')} with apt-get (missing; running as root)`)
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...names]
  ]) {
    const result = run('apt-get', args, { env: aptEnv, encoding: 'utf8' })
    if (result.error || result.status !== 0) {
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`
      return { ok: false, detail: `apt-get ${args[0]} failed:\n${output.trim()}` }
    }
  }
  const still = missingPackages(env, debianChromium)
  if (still.length > 0) {
    return {
      ok: false,
      detail: `apt-get installed ${names.join(' ')}, yet ${still.map((p) => p.name).join(', ')} is still missing`
    }
  }
  return { ok: true, installed: names }
}
