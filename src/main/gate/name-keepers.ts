import { gitAccess } from './git-subcommands'
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
  'base64',
  // writes regular files only, at names judged as redirections (see file-tool-options.ts)
  'tee'
])

/** Whether `command` is known to leave every name in the filesystem as it found it. */
export function keepsNames(command: SimpleCommand): boolean {
  const { argv } = unwrap(command.argv)
  const [name] = argv
  if (!name?.known) return false
  if (KEEPERS.has(name.text)) return true
  // A git command proven to only read creates, moves and links nothing (see git-subcommands.ts).
  return gitAccess(argv) === 'read'
}
