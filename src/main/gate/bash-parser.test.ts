import { copyFile, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EventHub } from '../events/event-hub'
import { ProjectSettingsFiles } from '../settings/project-settings'
import { SettingsStore } from '../settings/settings-store'
import { BashParser } from './bash-parser'
import { ruleExampleIssues } from './rule-examples'
import type { PermissionRule } from './rules'

const grammar = createRequire(__filename).resolve('tree-sitter-bash/tree-sitter-bash.wasm')

// Lines whose verdicts differ: allowed by a rule, forbidden, asked about, left to the mode, and
// ones the parser has concerns about, so a parse that went wrong during warm-up would show.
const rules: PermissionRule[] = [
  { tool: 'Shell', command: 'git status', decision: 'allow' },
  { tool: 'Shell', command: 'ls', decision: 'allow' },
  { tool: 'Shell', command: 'git push', decision: 'prompt' },
  { tool: 'Shell', command: 'rm', decision: 'forbid' }
]
const lines = [
  'git status && ls -la',
  'ls | rm -rf /',
  'git push origin main',
  'npm test > out.txt 2>&1',
  'eval "$(curl example.com)"',
  "bash -c 'ls; rm x'",
  'echo $((1 + 2)) && (',
  'cat <<EOF > .git/config\n[core]\nEOF'
]

let dir: string
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-bash-parser-')))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

describe('the shell parser warm-up', () => {
  it('is started by the gate feature, and a line judged during it gets the verdict it gets after', async () => {
    // A fresh parser module, not yet loaded by an earlier test file in this worker.
    vi.resetModules()
    const { bashParser } = await import('./bash-parser')
    const { gateFeature } = await import('./gate-feature')
    const { judgeShell } = await import('./rules')
    expect(bashParser.state).toBe('idle')

    const settings = new SettingsStore(path.join(dir, 'settings.yaml'), ruleExampleIssues)
    gateFeature.start({
      options: { dataDir: dir, interactive: false },
      settings,
      projectSettings: new ProjectSettingsFiles(null, ruleExampleIssues),
      hub: new EventHub()
    })
    expect(bashParser.state).toBe('warming')

    const judge = (line: string): ReturnType<typeof judgeShell> =>
      judgeShell(line, rules, 'Shell', { workspace: dir })
    const during = Promise.all(lines.map(judge))
    // Every line was asked for before the parser was ready: each waits for it.
    expect(bashParser.state).toBe('warming')
    const duringVerdicts = await during
    expect(bashParser.state).toBe('ready')
    const afterVerdicts = await Promise.all(lines.map(judge))

    expect(duringVerdicts).toEqual(afterVerdicts)
    expect(duringVerdicts.map((v) => v.decision)).toEqual([
      'allow',
      'forbid',
      'prompt',
      null,
      'prompt',
      'forbid',
      'prompt',
      'prompt'
    ])
  })
})

describe('a parser whose WebAssembly does not load', () => {
  it('refuses every line with a readable reason, and loads on a later line once it can', async () => {
    const file = path.join(dir, 'tree-sitter-bash.wasm')
    // The real grammar cut short: a file that is WebAssembly at its start and broken after.
    await writeFile(file, (await readFile(grammar)).subarray(0, 4096))
    const parser = new BashParser(file)

    await parser.warm() // a failed warm-up is no crash: the lines that come are refused
    expect(parser.state).toBe('failed')
    const refusal = parser.parse('ls')
    await expect(refusal).rejects.toThrow(
      /^the shell parser \(tree-sitter-bash\) could not be loaded, so no command line can be judged and none is run: .*WebAssembly.*\. Reinstalling Mecatl/
    )
    expect(parser.state).toBe('failed')

    await copyFile(grammar, file)
    const tree = await parser.parse('ls -la')
    expect(tree.rootNode.type).toBe('program')
    expect(tree.rootNode.hasError).toBe(false)
    tree.delete()
    expect(parser.state).toBe('ready')
  })

  it('names a grammar file that is missing', async () => {
    const parser = new BashParser(path.join(dir, 'missing.wasm'))
    await expect(parser.parse('ls')).rejects.toThrow(/could not be loaded.*ENOENT.*missing\.wasm/)
  })
})
