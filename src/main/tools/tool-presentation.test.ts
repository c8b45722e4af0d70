import { describe, expect, it } from 'vitest'
import { groupedText } from '../../shared/tool-card'
import { named, wholeCatalog } from '../../../testing/whole-catalog'
import { approvalFacts, toolCard } from './tool-presentation'

// The words each tool gives the window for its calls, as the window showed them when it kept
// them in tables of tool names: the card's line, the folded group's phrase, the approval's
// sentence, badge and diff.

describe('the card line of a call', () => {
  it('names the path of file tools, and what else tells the call apart', async () => {
    const { tools } = await wholeCatalog()
    const summary = (name: string, input: unknown): string =>
      toolCard(named(tools, name), input).summary
    expect(summary('Read', { path: 'src/a.ts' })).toBe('src/a.ts')
    expect(summary('Read', { path: 'a', offset: 10, limit: 50 })).toBe('a · lines 10–59')
    expect(summary('Read', { path: 'a', offset: 10 })).toBe('a · from line 10')
    expect(summary('Skill', {})).toBe('list the skills')
    expect(summary('Skill', { name: 'pdf' })).toBe('pdf')
    expect(summary('AskUser', { question: 'Which one?', options: ['a', 'b'] })).toBe('Which one?')
    expect(summary('Write', { path: 'n.md', content: 'x\ny' })).toBe('n.md · 2 lines')
    expect(summary('Write', { path: 'n.md', content: 'x\ny\n' })).toBe('n.md · 2 lines')
    expect(summary('Write', { path: 'n.md', content: '\n' })).toBe('n.md · 1 line')
    expect(summary('Edit', { path: 'n.md', old: 'a', new: 'b' })).toBe('n.md')
    expect(summary('ListDir', {})).toBe('.')
    expect(summary('Parallel', { tasks: ['a', 'b'], mode: 'select' })).toBe('2 branches · select')
    expect(summary('Parallel', { tasks: ['a'] })).toBe('1 branches · join')
  })

  it('sums up a plan by its progress and the step in progress', async () => {
    const { tools } = await wholeCatalog()
    const plan = (items: unknown): string => toolCard(named(tools, 'Todo'), { items }).summary
    const items = [
      { text: 'Read', status: 'done' },
      { text: 'Write the tests', status: 'in_progress' },
      { text: 'Ship', status: 'pending' }
    ]
    expect(plan(items)).toBe('3 steps · 1 done · now: Write the tests')
    expect(plan(items.slice(0, 1))).toBe('1 step · 1 done')
    expect(plan([])).toBe('cleared the plan')
  })

  it('falls back to a telling field, then to compact JSON', async () => {
    const { tools } = await wholeCatalog()
    expect(toolCard(named(tools, 'Shell'), { command: 'ls -la\necho hi' }).summary).toBe('ls -la')
    const mcp = named(tools, 'mcp__stand-in__look')
    expect(toolCard(mcp, { a: 1 }).summary).toBe('{"a":1}')
    expect(toolCard(mcp, {}).summary).toBe('')
    expect(toolCard(mcp, { a: 'x'.repeat(200) }).summary).toHaveLength(118)
  })

  it('has a line for arguments nested past what JSON.stringify can walk, and for a cycle', async () => {
    const { tools } = await wholeCatalog()
    let deep: unknown = {}
    for (let i = 0; i < 20_000; i++) deep = { child: deep }
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const tool of tools) {
      for (const input of [deep, cyclic]) {
        expect(toolCard(tool, input).summary, tool.name).toEqual(expect.any(String))
        expect(approvalFacts(tool, input).sentence, tool.name).toMatch(/\.$/)
      }
    }
    const mcp = named(tools, 'mcp__stand-in__look')
    expect(toolCard(mcp, deep).summary).toBe('(arguments too deeply nested to show)')
  })
})

describe('how calls fold', () => {
  it('says each tool’s calls in its own words, and keeps the asking ones apart', async () => {
    const { tools } = await wholeCatalog()
    const phrase = (name: string, n: number): string | null => {
      const grouped = named(tools, name).presentation.grouped
      return grouped && groupedText(grouped, n)
    }
    expect(phrase('Read', 3)).toBe('read 3 files')
    expect(phrase('Read', 1)).toBe('read 1 file')
    expect(phrase('Grep', 2)).toBe('searched 2 patterns')
    expect(phrase('Glob', 1)).toBe('matched 1 glob')
    expect(phrase('ListDir', 2)).toBe('listed 2 folders')
    expect(phrase('WebFetch', 2)).toBe('fetched 2 pages')
    expect(phrase('WebOpen', 1)).toBe('fetched 1 page')
    expect(phrase('WebSearch', 1)).toBe('searched the web once')
    expect(phrase('WebSearch', 3)).toBe('searched the web 3 times')
    expect(phrase('ShellStatus', 2)).toBe('checked 2 jobs')
    expect(phrase('RecallSession', 1)).toBe('recalled 1 session')
    expect(phrase('DiscoverModels', 2)).toBe('called DiscoverModels 2 times')
    expect(phrase('mcp__stand-in__look', 1)).toBe('called stand-in › look')
    expect(phrase('AskUser', 1)).toBeNull()
    expect(phrase('Todo', 1)).toBeNull()
  })

  it('shows what a terminal printed for Shell and ShellStatus, Shell with its live job', async () => {
    const { tools } = await wholeCatalog()
    const view = (name: string): string => named(tools, name).presentation.resultView
    expect(view('Shell')).toBe('job')
    expect(view('ShellStatus')).toBe('terminal')
    for (const name of ['Read', 'Write', 'WebFetch', 'Todo', 'mcp__stand-in__look']) {
      expect(view(name), name).toBe('display')
    }
  })
})

describe('the approval dialog’s words', () => {
  it('says what built-in tools will do, and the plain thing for the others', async () => {
    const { tools } = await wholeCatalog()
    const sentence = (name: string, input: unknown): string =>
      approvalFacts(named(tools, name), input).sentence
    expect(sentence('Read', { path: 'src/a.ts' })).toBe('Read the file src/a.ts.')
    expect(sentence('ListDir', {})).toBe('List what is in the folder at the top of the project.')
    expect(sentence('Write', { path: 'n.md', content: 'a\nb' })).toBe(
      'Write 2 lines to n.md, creating it or replacing what is there.'
    )
    expect(sentence('Edit', { path: 'n.md', old: 'a', new: 'b', replace_all: true })).toBe(
      'Edit n.md, replacing every occurrence of the text shown below.'
    )
    expect(sentence('Shell', { command: 'ls', background: true })).toMatch(/^Start the command/)
    expect(sentence('Shell', { command: 'ls' })).toBe(
      'Run the command below in the project folder.'
    )
    expect(sentence('SkillDraft', { name: 'greet' })).toBe(
      'Save a skill draft "greet" in .mecatl/skill-drafts/ of the project. It is not a skill until you activate it in Settings → Skills.'
    )
    expect(sentence('mcp__stand-in__change', {})).toBe(
      'Run the tool mcp__stand-in__change with the arguments below.'
    )
  })

  it('names both paths of a move or copy, and the path of a removal, in their own case', async () => {
    const { tools } = await wholeCatalog()
    const sentence = (name: string, input: unknown): string =>
      approvalFacts(named(tools, name), input).sentence
    expect(sentence('Move', { source: 'A.md', destination: 'b/B.md' })).toBe('Move A.md to b/B.md.')
    expect(sentence('Copy', { source: 'A.md', destination: 'C.md' })).toBe('Copy A.md to C.md.')
    expect(sentence('Remove', { path: 'Tests/Mul.test.js' })).toBe('Delete Tests/Mul.test.js.')
  })

  it('says a memory note is a note, not a file', async () => {
    const { tools } = await wholeCatalog()
    const sentence = (name: string, input: unknown): string =>
      approvalFacts(named(tools, name), input).sentence
    expect(sentence('Remember', { name: 'build', content: 'x' })).toBe(
      'Save the note "build" in the project memory, which later sessions in this folder read. No file changes.'
    )
    expect(sentence('RememberUser', { name: 'tone' })).toBe(
      'Save the note "tone" in your user model, which sessions in every project read. No file changes.'
    )
    expect(sentence('ForgetMemory', { name: 'build' })).toBe(
      'Forget the note "build" in the project memory: later sessions no longer see it (its history keeps it). No file changes.'
    )
    expect(sentence('UndoUserMemory', { name: 'tone' })).toBe(
      'Put back the previous version of the note "tone" in your user model. No file changes.'
    )
  })

  it('says what a call changes: files, memory, commands, or only something', async () => {
    const { tools } = await wholeCatalog()
    const changes = (name: string): string => named(tools, name).presentation.changes
    for (const name of ['Write', 'Edit', 'Remove', 'Move', 'Copy', 'SkillDraft']) {
      expect(changes(name), name).toBe('files')
    }
    for (const name of ['Remember', 'ForgetMemory', 'UndoMemory', 'ForgetUserMemory']) {
      expect(changes(name), name).toBe('memory')
    }
    expect(changes('Shell')).toBe('commands')
    expect(changes('mcp__stand-in__change')).toBe('other')
    expect(changes('Subagent')).toBe('other')
    expect(changes('Recall')).toBe('nothing')
  })

  it('previews Write as the whole content added and Edit as old → new', async () => {
    const { tools } = await wholeCatalog()
    const preview = (name: string, input: unknown): unknown =>
      approvalFacts(named(tools, name), input).preview ?? null
    expect(preview('Write', { path: 'N.md', content: 'a\nb' })).toEqual({
      kind: 'diff',
      path: 'N.md',
      before: '',
      after: 'a\nb'
    })
    expect(preview('Edit', { path: 'N.md', old: 'a', new: 'b' })).toEqual({
      kind: 'diff',
      path: 'N.md',
      before: 'a',
      after: 'b'
    })
    expect(preview('Edit', { path: 'n', old: 3, new: 'b' })).toBeNull()
    expect(preview('Read', { path: 'n' })).toBeNull()
  })
})
