import type { SimpleCommand } from './shell-command'
import { unwrap } from './wrappers'

// Commands that never create, move, link or remove a path. A write by redirection is judged by
// where its path leads when the line is asked about; with only these beside it, the path leads
// there when the line runs too. Any other command could first make the name a link (`ln -s
// .git/config x; echo > x`, `mv .git g; echo >> g/config`, a `git checkout` of a branch with a
// link in it), so a write on such a line cannot be proven to stay an ordinary one.
const KEEPERS = new Set([
  'echo',
  'printf',
  'cat',
  'ls',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'pwd',
  'date',
  'true',
  'false',
  'test',
  '[',
  'diff',
  'cmp',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'stat',
  'file',
  'du',
  'df',
  'whoami',
  'id',
  'uname',
  'seq',
  'sleep',
  'jq',
  'nl',
  'tac',
  'rev',
  'fold',
  'paste',
  'comm',
  'od',
  'xxd',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'base64'
])
const GIT_READS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'describe',
  'shortlog',
  'grep'
])

/** Whether `command` is known to leave every name in the filesystem as it found it. */
export function keepsNames(command: SimpleCommand): boolean {
  const [name, sub] = unwrap(command.argv).argv
  if (!name?.known) return false
  if (KEEPERS.has(name.text)) return true
  return name.text === 'git' && sub?.known === true && GIT_READS.has(sub.text)
}
