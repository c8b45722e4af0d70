import { describe, expect, it } from 'vitest'
import { changeKindSchema, type ApprovalRequest } from '../../shared/approvals'
import { resultViewSchema, type ToolCallView } from '../../shared/domain'
import { mcpStandIn, named, wholeCatalog } from '../../../testing/whole-catalog'
import { inUntrustedFolder } from '../agent/folder-content'
import { profileCatalog, turnTools } from '../agent/turn-tools'
import { permissionFloor } from '../gate/floor'
import { Catalog } from './catalog'
import { approvalFacts, toolCard } from './tool-presentation'
import { noCapabilities, type Tool } from './tool'

// Every fact a tool carries, on every tool there is (the built-ins as the core builds them, and
// MCP stand-ins), checked where it is used: the taint of an untrusted folder, the no-fs profile,
// the gate's floor, the card and the approval dialog. A tool added to any family is walked too.

/** What the model may send, well-formed or not: the card and the dialog must show it anyway. */
const oddInputs: unknown[] = [undefined, null, 'raw text', 42, [], {}, { path: 7, items: 'x' }]

describe('every tool in the catalog', () => {
  it('is the whole catalog: every family is on', async () => {
    const { tools } = await wholeCatalog()
    const names = tools.map((tool) => tool.name)
    for (const name of [
      'Read',
      'Shell',
      'ShellStatus',
      'WebFetch',
      'WebSearch',
      'Remember',
      'RememberUser',
      'Skill',
      'SkillDraft',
      'AskUser',
      'RecallSession',
      'Subagent',
      'Agent_scout',
      'Parallel',
      'Team',
      'ToolSearch',
      'mcp__stand-in__look'
    ]) {
      expect(names, name).toContain(name)
    }
    expect(new Set(names).size).toBe(names.length)
  })

  it('declares each fact, in a form its consumer knows', async () => {
    const { tools } = await wholeCatalog()
    for (const tool of tools) {
      const { presentation } = tool
      expect(typeof tool.folderContent, tool.name).toBe('boolean')
      expect(typeof tool.needsFolder, tool.name).toBe('boolean')
      expect([null, 'allow', 'prompt'], tool.name).toContain(tool.defaultDecision)
      // The views and changes the window's switches cover are exactly these enums' members.
      expect(resultViewSchema.options, tool.name).toContain(presentation.resultView)
      expect(changeKindSchema.options, tool.name).toContain(presentation.changes)
      // `nothing` exactly when no call of it changes anything.
      const neverChanges = tool.readOnly && !tool.readOnlyFor
      expect(presentation.changes === 'nothing', tool.name).toBe(neverChanges)
      // One that changes files names them, so the gate sees a write into `.git` (the file
      // family's declaration demands it; any other family must too).
      if (presentation.changes === 'files') {
        expect(typeof tool.pathsWritten, tool.name).toBe('function')
      }
      if (presentation.grouped) {
        expect(presentation.grouped.one, tool.name).not.toBe('')
        expect(presentation.grouped.many, tool.name).toContain('{n}')
      }
    }
  })

  it('makes its output untrusted in an untrusted folder exactly when it carries folder content', async () => {
    const { tools } = await wholeCatalog()
    // The tools the old name table listed, at least: a new one declares its own.
    const folderContent = tools.filter((tool) => tool.folderContent).map((tool) => tool.name)
    expect(folderContent).toEqual(
      expect.arrayContaining(['Edit', 'Glob', 'Grep', 'ListDir', 'Read', 'Shell', 'ShellStatus'])
    )
    expect(folderContent).toContain('Skill')
    for (const name of ['Write', 'Copy', 'Move', 'Remove', 'WebFetch', 'mcp__stand-in__look']) {
      expect(named(tools, name).folderContent, name).toBe(false)
    }
    for (const tool of tools) {
      const widened = inUntrustedFolder(tool, noCapabilities)
      expect(widened.untrustedInput, tool.name).toBe(tool.folderContent)
      // Only ever a widening: what was untrusted stays so.
      const untrusted = { ...noCapabilities, untrustedInput: true }
      expect(inUntrustedFolder(tool, untrusted).untrustedInput, tool.name).toBe(true)
    }
  })

  it('is dropped by the no-fs profile exactly when it needs a folder, and refused by name', async () => {
    const { tools } = await wholeCatalog()
    const full = new Catalog(tools)
    const kept = profileCatalog(full, 'no-fs').list()
    expect(kept.map((tool) => tool.name).sort()).toEqual(
      tools
        .filter((tool) => !tool.needsFolder)
        .map((tool) => tool.name)
        .sort()
    )
    expect(profileCatalog(full, 'default').list()).toHaveLength(tools.length)
    const turn = turnTools(full, { profile: 'no-fs', planning: false, disclosed: new Set() })
    for (const tool of tools) {
      const refused = turn.refuse(tool.name)
      if (tool.needsFolder) expect(refused, tool.name).toMatch(/no-fs profile/)
      else expect(refused, tool.name).toBeNull()
    }
    expect(
      tools.filter((tool) => tool.needsFolder).map((tool) => tool.name),
      'the file tools, Shell and its jobs, Parallel and SkillDraft'
    ).toEqual(
      expect.arrayContaining(['Read', 'Write', 'Shell', 'ShellStatus', 'Parallel', 'SkillDraft'])
    )
  })

  it('gets its declared default decision from the gate’s floor, and only that', async () => {
    const { tools } = await wholeCatalog()
    for (const tool of tools) {
      expect(permissionFloor(tool)?.decision ?? null, tool.name).toBe(tool.defaultDecision)
    }
    // The memory tools, as the old name table had them; an MCP look-alike declares none.
    const floored = tools.filter((tool) => tool.defaultDecision !== null)
    expect(floored.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'ForgetMemory',
        'ForgetUserMemory',
        'InspectMemory',
        'InspectUserMemory',
        'Recall',
        'RecallUser',
        'Remember',
        'RememberUser',
        'SearchMemory',
        'SearchUserModel',
        'UndoMemory',
        'UndoUserMemory'
      ])
    )
    expect(named(tools, 'ForgetMemory').defaultDecision).toBe('prompt')
  })

  it('gives a card and an approval for any input, however malformed, without throwing', async () => {
    const { tools } = await wholeCatalog()
    for (const tool of tools) {
      for (const input of oddInputs) {
        const card = toolCard(tool, input)
        expect(typeof card.summary, tool.name).toBe('string')
        expect(card.grouped).toBe(tool.presentation.grouped)
        expect(card.resultView).toBe(tool.presentation.resultView)
        const asked = approvalFacts(tool, input)
        expect(asked.sentence, tool.name).toMatch(/\.$/)
        expect(asked.changes).toBe(tool.presentation.changes)
      }
    }
  })

  it('says the plain thing when its presentation throws, rather than losing the card', () => {
    const tool = throwing()
    expect(toolCard(tool, { path: 'a.md' }).summary).toBe('a.md')
    expect(approvalFacts(tool, {})).toEqual({
      sentence: 'Run the tool Thrower with the arguments below.',
      changes: 'other'
    })
  })
})

describe('what main sends the window for a call', () => {
  it('carries the card on the call and the dialog’s words on the approval request', async () => {
    const { harness: h } = await wholeCatalog({ permissions: 'ask' })
    const asked: ApprovalRequest[] = []
    h.client.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as ApprovalRequest
      asked.push(request)
      void h.client.call('approval.respond', { approvalId: request.approvalId, decision: 'deny' })
    })
    h.fake.setScript([
      {
        toolCalls: [
          { name: 'Todo', input: { items: [{ text: 'Write it', status: 'in_progress' }] } },
          { name: 'Write', input: { path: 'n.md', content: 'a\nb' } }
        ]
      },
      { text: 'done' }
    ])
    const session = await h.core.sessions.create(h.workspace)
    await h.core.sessions.send(session.id, 'go')
    await h.core.sessions.idle(session.id)
    const calls = session
      .transcript()
      .flatMap((item): ToolCallView[] => (item.kind === 'tool' ? [item.call] : []))
    expect(calls.map((call) => call.card)).toEqual([
      { summary: '1 step · 0 done · now: Write it', grouped: null, resultView: 'display' },
      {
        summary: 'n.md · 2 lines',
        grouped: { one: 'called Write', many: 'called Write {n} times' },
        resultView: 'display'
      }
    ])
    expect(asked.map(({ sentence, changes, preview }) => ({ sentence, changes, preview }))).toEqual(
      [
        {
          sentence: 'Write 2 lines to n.md, creating it or replacing what is there.',
          changes: 'files',
          preview: { kind: 'diff', path: 'n.md', before: '', after: 'a\nb' }
        }
      ]
    )
  })
})

/** A tool whose presentation cannot read what it is given. */
function throwing(): Tool {
  const tool = mcpStandIn('thrower')
  const fail = (): never => {
    throw new Error('unreadable')
  }
  const presentation = { ...tool.presentation, summary: fail, sentence: fail, preview: fail }
  return { ...tool, name: 'Thrower', presentation }
}
