import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { previewRule } from './rule-preview'

const shellCall = (id: string, command: string): TranscriptItem => ({
  kind: 'tool',
  turnId: 't',
  call: {
    id,
    name: 'Shell',
    input: { command },
    state: 'done',
    readOnly: false,
    capabilities: null,
    startedAt: null,
    endedAt: null,
    output: null,
    refusedBy: null
  }
})

describe('the preview of "Always allow"', () => {
  it("says which of the program's options the new rule will not cover, and why", async () => {
    const preview = await previewRule({ tool: 'Shell', command: 'find', decision: 'allow' }, [])
    expect(preview.problem).toBeNull()
    expect(preview.description).toMatch(/starts with the words `find`/)
    expect(preview.description).toMatch(
      /It does not cover `-exec`, `-execdir`, `-ok` and `-okdir` \(they run other commands\), `-delete`/
    )
    expect(preview.description).toMatch(/a write into \.git/)
  })

  it.each([
    ['rg', '`--pre`'],
    ['git log', '`-c` settings'],
    ['sed -n', '`e` command'],
    ['awk', '`system()`'],
    ['tar', '`-x`'],
    ['sort', '`--compress-program`'],
    ['man', '`-P`'],
    ['less', '`+command`'],
    ['vim', '`-c`'],
    ['ssh', 'ProxyCommand'],
    ['rsync', '`-e`'],
    ['zip', '`-T`'],
    ['python3', 'standard input']
  ])('names what a rule for %s does not cover', async (command, named) => {
    const preview = await previewRule({ tool: 'Shell', command, decision: 'allow' }, [])
    expect(preview.description).toContain(named)
  })

  it('still says what always asks for a program with no dangerous options known', async () => {
    const preview = await previewRule({ tool: 'Shell', command: 'npm test', decision: 'allow' }, [])
    expect(preview.description).toMatch(
      /It does not cover a redirection that writes a file, a write into \.git, or anything the judge cannot see/
    )
  })

  it('lists the calls of this session that start with its words but it would not let run', async () => {
    const transcript = [
      shellCall('1', 'find . -name x'),
      shellCall('2', 'find . -exec touch PWNED ;'),
      shellCall('3', 'ls')
    ]
    const preview = await previewRule(
      { tool: 'Shell', command: 'find', decision: 'allow' },
      transcript
    )
    expect(preview.sessionMatches).toEqual(['find . -name x'])
    expect(preview.description).toMatch(
      /of this session's calls, it would not let `find \. -exec touch PWNED ;` run$/
    )
  })

  it('adds nothing to a rule that asks or forbids, as those apply whatever the options', async () => {
    const preview = await previewRule({ tool: 'Shell', command: 'find', decision: 'forbid' }, [])
    expect(preview.description).not.toMatch(/does not cover/)
  })
})
