import { run, write, type Danger, type Knowledge } from './option-knowledge'
import { shown } from './option-scan'

// Remote shells and copies: ssh runs programs its configuration names (ProxyCommand,
// LocalCommand), and scp, sftp and rsync run the program they are told to use as ssh (see
// program-options.ts).
const SSH_KEYS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|include|pkcs11provider|securitykeyprovider|identityagent|xauthlocation|userknownhostsfile|controlpath|controlmaster|sshaskpass)$/i

function ssh(valued: string, runs: Record<string, string>, summary: string): Knowledge {
  const danger: Record<string, Danger> = {
    '-F': run('reads a configuration file, which can name programs to run (ProxyCommand)'),
    '-I': run('loads a PKCS#11 library, which is code')
  }
  for (const [letter, why] of Object.entries(runs)) danger[letter] = run(why)
  return {
    spec: { valued },
    danger,
    more: (scan) =>
      scan.options.flatMap((o) => {
        if (o.name !== '-o') return []
        const key = o.value?.known ? (o.value.text.split(/[=\s]/)[0] ?? '') : null
        if (key !== null && !SSH_KEYS.test(key)) return []
        return [
          {
            option: shown(o),
            why:
              key === null
                ? 'sets an option only known when the line runs, which could be ProxyCommand'
                : `sets ${key}, which runs a program, loads code or writes a file`
          }
        ]
      }),
    summary
  }
}

export const REMOTE_TOOLS: Record<string, Knowledge> = {
  ssh: ssh(
    'BbcDEeFIiJLlmOoPpQRSWw',
    { '-E': 'writes its log to a file', '-S': 'makes a control socket, a file it names' },
    '`-o ProxyCommand` and similar (they run programs), `-F` (a configuration file), `-I` (a library) and `-E` (a log file)'
  ),
  scp: ssh(
    'cDFiJloPSX',
    {
      '-S': 'runs the program it names instead of ssh',
      '-D': 'runs the program it names as the sftp server'
    },
    '`-S`, `-D` and `-o ProxyCommand` (they run programs) and `-F` (a configuration file)'
  ),
  sftp: ssh(
    'BbcDFiJloPRSs',
    {
      '-S': 'runs the program it names instead of ssh',
      '-D': 'runs the program it names as the sftp server',
      '-b': 'reads commands from a file, and `!` among them runs a shell command'
    },
    '`-S`, `-D`, `-b` and `-o ProxyCommand` (they run programs) and `-F` (a configuration file)'
  ),
  rsync: {
    spec: {
      valued: 'eBTMf',
      long: Object.fromEntries(
        ['rsh', 'rsync-path', 'log-file', 'log-file-format', 'write-batch', 'only-write-batch',
         'read-batch', 'remote-option', 'temp-dir', 'partial-dir', 'backup-dir', 'compare-dest',
         'copy-dest', 'link-dest', 'files-from', 'exclude-from', 'include-from', 'filter',
         'exclude', 'include', 'password-file', 'chmod', 'chown', 'timeout', 'port', 'suffix',
         'max-size', 'min-size', 'bwlimit', 'iconv', 'out-format', 'config'
        ].map((n) => [n, 'value' as const]) // prettier-ignore
      ),
      abbreviations: true
    },
    danger: {
      '-e': run('runs the program it names as the remote shell'),
      '--rsh': run('runs the program it names as the remote shell'),
      '--rsync-path': run('runs the program it names as rsync'),
      '-M': run('passes options to the other rsync, which can run programs or write files'),
      '--remote-option': run(
        'passes options to the other rsync, which can run programs or write files'
      ),
      '--log-file': write('writes its log to a file'),
      '--write-batch': write('writes a batch file and a script'),
      '--only-write-batch': write('writes a batch file and a script'),
      '--config': run('reads a configuration file')
    },
    summary:
      '`-e`, `--rsync-path`, `-M` (they run programs), `--log-file` and `--write-batch` (they write files)'
  }
}
