import { execFile } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliPath, ensureCliBuilt, makeTempDir, repoRoot } from '../../../testing/cli-runner'

const execFileAsync = promisify(execFile)
const made: string[] = []

beforeAll(() => ensureCliBuilt(), 300_000)
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))))

async function tempDir(name: string): Promise<string> {
  const dir = await makeTempDir(name)
  made.push(dir)
  return dir
}

/** `mecatl call Shell` for `touch ran` in allow mode, with the CLI at `cli`. */
async function touchThroughCli(cli: string, workspace: string, home: string) {
  const command = JSON.stringify({ command: 'touch ran' })
  const args = [cli, 'call', 'Shell', command, '--workspace', workspace, '--mode', 'allow']
  const env = { PATH: process.env.PATH, MECATL_HOME: home }
  return execFileAsync(process.execPath, args, { env, timeout: 60_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code?: number; stderr?: string }) => ({
      code: error.code ?? -1,
      stderr: error.stderr ?? ''
    })
  )
}

/**
 * The built app, as installed, beside a node_modules that is the repository's except for
 * tree-sitter-bash, whose WebAssembly is cut short: an install that went wrong.
 */
async function appWithBrokenGrammar(): Promise<string> {
  const app = await tempDir('broken-grammar')
  await cp(path.join(repoRoot, 'out', 'main'), path.join(app, 'out', 'main'), { recursive: true })
  await cp(path.join(repoRoot, 'package.json'), path.join(app, 'package.json'))
  const modules = path.join(app, 'node_modules')
  await mkdir(modules)
  for (const name of await readdir(path.join(repoRoot, 'node_modules'))) {
    if (name.startsWith('.') || name === 'tree-sitter-bash') continue
    await symlink(path.join(repoRoot, 'node_modules', name), path.join(modules, name))
  }
  const real = path.join(repoRoot, 'node_modules', 'tree-sitter-bash')
  const broken = path.join(modules, 'tree-sitter-bash')
  await mkdir(broken)
  await cp(path.join(real, 'package.json'), path.join(broken, 'package.json'))
  const wasm = await readFile(path.join(real, 'tree-sitter-bash.wasm'))
  await writeFile(path.join(broken, 'tree-sitter-bash.wasm'), wasm.subarray(0, 4096))
  return app
}

describe('a Shell call when the shell parser cannot load', () => {
  it('is refused with the reason, and nothing runs', async () => {
    const app = await appWithBrokenGrammar()
    const home = await tempDir('broken-grammar-home')
    const workspace = await tempDir('broken-grammar-project')
    const refused = await touchThroughCli(path.join(app, 'out', 'main', 'cli.js'), workspace, home)
    // In allow mode the line would run once judged; it cannot be judged, so it is never allowed.
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'the shell parser (tree-sitter-bash) could not be loaded, so no command line can be judged and none is run'
    )
    expect(existsSync(path.join(workspace, 'ran'))).toBe(false)

    // The same call with the app as built runs: the refusal was the parser's.
    const ran = await touchThroughCli(cliPath, workspace, home)
    expect(ran).toEqual({ code: 0, stderr: '' })
    expect(existsSync(path.join(workspace, 'ran'))).toBe(true)
  }, 120_000)
})
