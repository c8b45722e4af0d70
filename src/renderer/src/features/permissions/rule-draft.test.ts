import { describe, expect, it } from 'vitest'
import {
  defaultCommandPrefix,
  draftForRequest,
  ruleFromDraft,
  ruleTarget,
  type RuleDraft
} from './rule-draft'

describe('defaultCommandPrefix', () => {
  it.each([
    ['npm test -- --watch', 'npm test'],
    ['git push origin main', 'git push'],
    ['git status', 'git status'],
    ['ls -la notes', 'ls'],
    ['cat README.md | wc -l', 'cat'],
    ['npm run build -- --prod', 'npm run build'],
    ['pnpm exec vitest run', 'pnpm exec vitest'],
    ['timeout 30 npm test', 'npm test'],
    ['nice -n 5 make all', 'make all'],
    ['env CI=1 npm test', 'npm test'],
    ['FOO=1 make all', 'make all'],
    ['./scripts/build.sh release', './scripts/build.sh release'],
    ['echo "hi there"', 'echo'],
    ['git log; rm -rf /', 'git log'],
    ['make&&make install', 'make'],
    ['python3 -m pytest', 'python3'],
    ['cd src/lib', 'cd'],
    ['  \n', '']
  ])('%s → %s', (command, expected) => {
    expect(defaultCommandPrefix(command)).toBe(expected)
  })
})

describe('draftForRequest', () => {
  it('proposes a session rule for the command’s first words when the tool is Shell', () => {
    expect(draftForRequest({ tool: 'Shell', input: { command: 'npm test -- --watch' } })).toEqual({
      scope: 'session',
      tool: 'Shell',
      command: 'npm test',
      decision: 'allow'
    })
  })

  it('proposes a rule for the whole tool otherwise', () => {
    expect(draftForRequest({ tool: 'Write', input: { path: 'a.txt', content: '' } })).toEqual({
      scope: 'session',
      tool: 'Write',
      command: '',
      decision: 'allow'
    })
  })
})

describe('ruleFromDraft', () => {
  const draft: RuleDraft = {
    scope: 'project',
    tool: ' Shell ',
    command: ' npm test ',
    decision: 'allow'
  }

  it('keeps the command of a Shell rule, trimmed', () => {
    expect(ruleFromDraft(draft)).toEqual({ tool: 'Shell', command: 'npm test', decision: 'allow' })
  })

  it('leaves the command out when it is empty or the tool is not Shell', () => {
    expect(ruleFromDraft({ ...draft, command: '  ' })).toEqual({ tool: 'Shell', decision: 'allow' })
    expect(ruleFromDraft({ ...draft, tool: 'Write', decision: 'forbid' })).toEqual({
      tool: 'Write',
      decision: 'forbid'
    })
  })
})

describe('ruleTarget', () => {
  it('says what a rule applies to', () => {
    expect(ruleTarget({ tool: 'Shell', command: 'git push', decision: 'prompt' })).toBe(
      'commands starting with git push'
    )
    expect(ruleTarget({ tool: 'Shell', decision: 'forbid' })).toBe('every command')
    expect(ruleTarget({ tool: 'Write', decision: 'allow' })).toBe('every Write call')
  })
})
