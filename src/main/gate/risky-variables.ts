// Variables that change what a program loads or runs, or what the shell does with the words of a
// later command: `GIT_SSH=x git fetch` is not the `git fetch` a rule allowed, and after
// `PATH=/tmp; ls` the `ls` is not the one it allowed either. One list for every place that asks
// (assignments, `export`/`declare`/`unset`, `env`).
const RISKY_VARIABLE = new RegExp(
  '^(' +
    [
      // what runs, and what it loads
      'PATH',
      'LD_\\w*',
      'DYLD_\\w*',
      'BASH_ENV',
      'ENV',
      'BASH_FUNC_\\w*',
      'BASH_LOADABLES_PATH',
      // bash's own tables of what a name runs: `BASH_CMDS[ls]=/bin/sh` makes `ls` run sh
      'BASH_CMDS',
      'BASH_ALIASES',
      'EXECIGNORE',
      'CDPATH',
      'GCONV_PATH',
      'LOCPATH',
      // how the shell splits and traces words
      'IFS',
      'SHELLOPTS',
      'BASHOPTS',
      // prompts are expanded like `${x@P}`, which runs the substitutions in them
      'PS\\d',
      'PROMPT_COMMAND',
      // the catalog `$"…"` strings are translated from, whose text is expanded again
      'TEXTDOMAIN\\w*',
      // where programs find their settings, which can name programs to run
      'HOME',
      'XDG_\\w*',
      'GIT',
      'GIT_\\w*',
      'SSH_\\w*',
      'SHELL',
      'EDITOR',
      'VISUAL',
      'PAGER',
      'BROWSER',
      'MANPAGER',
      'MANOPT',
      'LESS\\w*',
      'VIM\\w*',
      'MYVIMRC',
      'EXINIT',
      'GVIMINIT',
      'ZDOTDIR',
      'SUDO_ASKPASS',
      // programs that read their options from the environment (`--pre`, `--to-command`, `-e`)
      'RIPGREP_CONFIG_PATH',
      'TAR_OPTIONS',
      'RSYNC_\\w*',
      'GREP_OPTIONS',
      'AWKPATH',
      'AWKLIBPATH',
      'OPENSSL_\\w*',
      'NPM_CONFIG_\\w*',
      'npm_config_\\w*',
      // language runtimes' own hooks
      'NODE_OPTIONS',
      'NODE_PATH',
      'PYTHON\\w*',
      'PERL5\\w*',
      'PERLLIB',
      'RUBY\\w*',
      'GEM_\\w*',
      'LUA_\\w*',
      'CLASSPATH',
      'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS',
      'JDK_JAVA_OPTIONS'
    ].join('|') +
    ')$'
)

/**
 * Whether setting or removing this variable can change what a later command runs. A subscript
 * names an element of the same variable: `BASH_CMDS[ls]` is BASH_CMDS.
 */
export function isRiskyVariable(name: string): boolean {
  const bracket = name.indexOf('[')
  return RISKY_VARIABLE.test(bracket < 0 ? name : name.slice(0, bracket))
}
