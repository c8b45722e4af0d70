import { plusCommands, run, write, type Knowledge } from './option-knowledge'

// Pagers and editors: they run commands the person types, so an option that types for them
// (`less +!cmd`, `vim -c`), names a program (`man -P`) or a file of commands (`vim -S`) runs
// code no rule for them covers (see program-options.ts).
export const VIEWERS: Record<string, Knowledge> = {
  man: {
    spec: {
      valued: 'PCMpLSsmelRrE',
      optional: 'HTX',
      long: {
        pager: 'value',
        'config-file': 'value',
        manpath: 'value',
        html: 'optional',
        preprocessor: 'value',
        sections: 'value',
        locale: 'value'
      },
      abbreviations: true
    },
    danger: {
      '-P': run('runs a pager program it names'),
      '--pager': run('runs a pager program it names'),
      '-H': run('runs a web browser'),
      '--html': run('runs a web browser'),
      '-C': run('reads a configuration file, which can name programs to run'),
      '--config-file': run('reads a configuration file, which can name programs to run')
    },
    summary: '`-P`, `-H` (they run other programs) and `-C` (a configuration file)'
  },
  less: {
    spec: {
      valued: 'bhjkoOpPtTxyz#',
      long: {
        'log-file': 'value',
        'LOG-FILE': 'value',
        'lesskey-file': 'value',
        'lesskey-src': 'value',
        'lesskey-content': 'value',
        pattern: 'value',
        prompt: 'value',
        tag: 'value'
      },
      abbreviations: true
    },
    danger: {
      '-o': write('copies what it shows into a file'),
      '-O': write('copies what it shows into a file'),
      '--log-file': write('copies what it shows into a file'),
      '--LOG-FILE': write('copies what it shows into a file'),
      '-k': run('reads key bindings, which can set LESSOPEN and so run programs'),
      '--lesskey-file': run('reads key bindings, which can set LESSOPEN and so run programs'),
      '--lesskey-src': run('reads key bindings, which can set LESSOPEN and so run programs'),
      '--lesskey-content': run('reads key bindings, which can set LESSOPEN and so run programs')
    },
    more: (scan) => plusCommands(scan, 'runs less commands on start, and `!` runs a shell command'),
    summary:
      '`+command` (it runs less commands, `!` among them), `-o`/`-O` (they write files) and `-k` (key bindings)'
  },
  vim: {
    spec: {
      flags: 'AbCDeEfFgHlLmMnNoOpRyZx',
      valued: 'cSuUswWiTtqrd',
      optional: 'V',
      long: {
        cmd: 'value',
        startuptime: 'value',
        servername: 'value',
        remote: 'flag',
        'remote-send': 'value',
        'remote-expr': 'value',
        'remote-silent': 'flag',
        'remote-tab': 'flag',
        clean: 'flag',
        noplugin: 'flag'
      },
      abbreviations: false
    },
    danger: {
      ...Object.fromEntries(
        ['-c', '--cmd'].map((n) => [n, run('runs an editor command, and `!` runs a shell command')])
      ),
      ...Object.fromEntries(
        ['-S', '-u', '-U'].map((n) => [n, run('reads editor commands from a file it names')])
      ),
      '-s': run('reads typed keys or commands from a file or standard input'),
      '-e': run('reads editor commands from standard input'),
      '-E': run('reads editor commands from standard input'),
      '-w': run('writes the keys typed to a file'),
      '-W': run('writes the keys typed to a file'),
      '-i': run('reads and writes the viminfo file it names'),
      '--startuptime': run('writes timing to a file it names'),
      ...Object.fromEntries(
        ['--remote', '--remote-send', '--remote-expr', '--remote-silent', '--remote-tab'].map(
          (n) => [n, run('sends keys or files to another running editor')]
        )
      )
    },
    more: (scan) => [
      ...plusCommands(scan, 'runs an editor command on start, and `!` runs a shell command'),
      ...scan.options.flatMap((o) =>
        o.name === '-V' && o.value?.known && /\D/.test(o.value.text)
          ? [{ option: o.written, why: 'writes its messages to a file it names' }]
          : []
      )
    ],
    summary:
      '`+command`, `-c`, `--cmd`, `-S`, `-u`, `-s`, `-e` (they run editor commands, `!` among them) and `-w`, `-W`, `-V` with a file (they write files)'
  }
}
