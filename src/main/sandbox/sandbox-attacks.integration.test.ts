// The sandbox attacked from inside, as issue #33 asks: every attack in testing/sandbox-attacks.ts
// run through the built CLI (`mecatl call Shell` in allow mode, so nothing but the sandbox stands
// in the way), once as whoever runs the tests and, when that is root (as in CI), once more as an
// ordinary user created for it. Each attack asserts its outcome, never the sandbox's arguments.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, lstatSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { cliPath, ensureCliBuilt } from '../../../testing/cli-runner'
import {
  ATTACKS,
  KEY_VARIABLES,
  attackScript,
  attackSections,
  plantAttackTargets,
  plantRootOnly,
  type AttackPlace
} from '../../../testing/sandbox-attacks'

const asRoot = process.getuid?.() === 0
const ORDINARY_USER = 'mecatl-attacker'

interface Runner {
  name: string
  uid: number
  gid: number
}

/** The users the attacks run as: this one, and as root an ordinary one too. */
function runners(): Runner[] {
  const self: Runner = {
    name: asRoot ? 'root' : 'this user',
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0
  }
  if (!asRoot) return [self]
  return [self, { name: 'an ordinary user', ...ordinaryUser() }]
}

function ordinaryUser(): { uid: number; gid: number } {
  const id = (flag: string): number =>
    Number(spawnSync('id', [flag, ORDINARY_USER], { encoding: 'utf8' }).stdout.trim())
  if (spawnSync('id', [ORDINARY_USER]).status !== 0) {
    const made = spawnSync('useradd', ['--no-create-home', '--shell', '/bin/sh', ORDINARY_USER], {
      encoding: 'utf8'
    })
    if (made.status !== 0) throw new Error(`useradd ${ORDINARY_USER} failed: ${made.stderr}`)
  }
  return { uid: id('-u'), gid: id('-g') }
}

function chownTree(at: string, uid: number, gid: number): void {
  const stat = lstatSync(at)
  chownSync(at, uid, gid)
  if (stat.isDirectory())
    for (const name of readdirSync(at)) chownTree(path.join(at, name), uid, gid)
}

const cleanups: (() => Promise<void>)[] = []

beforeAll(() => ensureCliBuilt(), 180_000)
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.each(runners())('the sandbox attacked as $name', (runner) => {
  let at: AttackPlace
  let sections: Map<string, string>

  beforeAll(async () => {
    // Off /tmp, which is the sandbox's own; in /var/tmp, which every user may use.
    const base = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-attack-')))
    cleanups.push(() => rm(base, { recursive: true, force: true }))
    at = {
      base,
      home: path.join(base, 'home'),
      workspace: path.join(base, 'project'),
      dataDir: path.join(base, 'home', '.config', 'Mecatl'),
      token: randomBytes(12).toString('hex'),
      id: randomBytes(6).toString('hex'),
      hostPid: process.pid,
      asRoot: runner.uid === 0
    }
    await mkdir(at.workspace, { recursive: true })
    await mkdir(at.dataDir, { recursive: true })
    const closeSockets = await plantAttackTargets(at)
    cleanups.push(closeSockets)
    // As root, root's own unreadable files; as an ordinary user they are root's and unreadable anyway.
    const rootOnly = await plantRootOnly(at)
    cleanups.push(() => rm(rootOnly, { force: true }))
    // A script of the project, as an attacker's repository would ship it: the gate sees only
    // `./attack.sh`, so nothing but the sandbox stands between the attacks and the machine.
    await writeFile(path.join(at.workspace, 'attack.sh'), `#!/bin/sh\n${attackScript(at)}\n`, {
      mode: 0o755
    })
    const config = path.join(base, 'settings.yaml')
    await writeFile(
      config,
      YAML.stringify({
        providers: [{ id: 'main', kind: 'openai', api_key_env: 'OPENAI_API_KEY' }],
        websearch: {
          backends: [
            { kind: 'http', url: 'https://search.invalid/q', api_key_env: 'MY_SEARCH_KEY' }
          ]
        },
        permissions: { mode: 'allow' }
      })
    )
    chownTree(base, runner.uid, runner.gid)
    const keys = Object.fromEntries(KEY_VARIABLES.map((name) => [name, `key-${at.token}`]))
    const result = spawnSync(
      process.execPath,
      [
        cliPath,
        'call',
        'Shell',
        JSON.stringify({ command: './attack.sh', timeout_ms: 120_000 }),
        '--workspace',
        at.workspace,
        '--config',
        config
      ],
      {
        cwd: at.workspace,
        uid: runner.uid,
        gid: runner.gid,
        encoding: 'utf8',
        timeout: 150_000,
        env: {
          PATH: process.env.PATH,
          HOME: at.home,
          MECATL_HOME: at.dataDir,
          LANG: 'C.UTF-8',
          ...keys
        }
      }
    )
    const printed = `${result.stdout}${result.stderr}`
    let text: string
    try {
      const parsed = JSON.parse(result.stdout) as { content: { text?: string }[] }
      text = parsed.content.map((c) => c.text ?? '').join('')
    } catch {
      throw new Error(
        `mecatl call Shell did not answer with a result (exit ${result.status}): ${printed}`
      )
    }
    expect(text, 'the command ran confined').toContain('=== capabilities')
    sections = attackSections(text)
  }, 200_000)

  it.each(ATTACKS.map((attack) => [attack.name, attack] as const))('%s', async (_name, attack) => {
    const said = sections.get(attack.name)
    expect(said, `no output for "${attack.name}"`).toBeDefined()
    await attack.check(said ?? '', at)
  })
})
