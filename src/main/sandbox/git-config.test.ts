// The git settings a confined command sees: preferences kept, every way a credential can sit in
// a git config left out, and a file that does not parse giving nothing rather than a guess.
import { describe, expect, it } from 'vitest'
import { parseGitConfig, sanitizedGitConfig } from './git-config'

describe('the git settings a confined command sees', () => {
  it('keeps who commits, aliases and colours', () => {
    const text = [
      '[user]',
      '\tname = Ada Lovelace',
      '\temail = ada@example.com',
      '[alias]',
      '\tst = status -sb',
      '[color]',
      '\tui',
      '[core "x"]',
      '\tpager = less -R # comment'
    ].join('\n')
    const kept = sanitizedGitConfig(text) ?? ''
    expect(parseGitConfig(kept)).toEqual([
      { section: 'user', subsection: null, key: 'name', value: 'Ada Lovelace' },
      { section: 'user', subsection: null, key: 'email', value: 'ada@example.com' },
      { section: 'alias', subsection: null, key: 'st', value: 'status -sb' },
      { section: 'color', subsection: null, key: 'ui', value: null },
      { section: 'core', subsection: 'x', key: 'pager', value: 'less -R' }
    ])
  })

  it('leaves out credential helpers, http headers, includes and tokens, however written', () => {
    const text = [
      '[credential]',
      '\thelper = store',
      '[credential "https://github.com"]',
      '\thelper = !gh auth git-credential',
      '[Credential]',
      '\tHelper = cache',
      '[http]',
      '\textraHeader = Authorization: Basic c2VjcmV0',
      '[http "https://example.com"]',
      '\textraheader = Authorization: Bearer TOKEN1',
      '[include]',
      '\tpath = ~/.gitconfig.secrets',
      '[includeIf "gitdir:~/work/"]',
      '\tpath = ~/.gitconfig.work',
      '[url "https://x-access-token:TOKEN2@github.com/"]',
      '\tinsteadOf = https://github.com/',
      '[url "git@github.com:"]',
      '\tinsteadOf = https://github.com/',
      '[remote "origin"]',
      '\turl = https://TOKEN3@example.com/repo.git',
      '[github]',
      '\ttoken = TOKEN4',
      '[sendemail]',
      '\tsmtpPass = TOKEN5',
      '[core]',
      '\taskPass = "https://user:TOKEN6@evil"',
      '[Credential.Example]',
      '\thelper = store'
    ].join('\n')
    const kept = sanitizedGitConfig(text) ?? 'unparsed'
    for (const secret of ['TOKEN', 'c2VjcmV0', 'helper', 'include', 'store', 'cache']) {
      expect(kept).not.toContain(secret)
    }
    // An insteadOf without credentials is a preference and stays.
    expect(kept).toContain('[url "git@github.com:"]')
  })

  it('reads quotes, escapes and continued lines as git does', () => {
    const text =
      '[alias]\n\tlg = "log --graph \\\n  --oneline" ; note\n\tq = say \\"hi\\"\\tthere\n'
    expect(parseGitConfig(text)).toEqual([
      { section: 'alias', subsection: null, key: 'lg', value: 'log --graph   --oneline' },
      { section: 'alias', subsection: null, key: 'q', value: 'say "hi"\tthere' }
    ])
  })

  it('round-trips what it keeps, quotes and backslashes included', () => {
    const text = '[alias "a\\"b"]\n\tx = "a \\\\ \\"b\\" \\n c"\n'
    const once = sanitizedGitConfig(text) ?? ''
    expect(parseGitConfig(once)).toEqual(parseGitConfig(text))
    expect(sanitizedGitConfig(once)).toBe(once)
  })

  it('gives nothing for a file it cannot parse', () => {
    for (const broken of [
      '[user\n\tname = x',
      'name = before any section',
      '[user]\n\tname = "unterminated',
      '[user]\n\tname = bad \\q escape',
      '[user]\n\t=novalue'
    ]) {
      expect(sanitizedGitConfig(broken)).toBeNull()
    }
  })

  it('is empty for a file with nothing it keeps', () => {
    expect(sanitizedGitConfig('[credential]\n\thelper = store\n')).toBe('')
    expect(sanitizedGitConfig('')).toBe('')
  })
})
