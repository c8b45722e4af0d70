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
      'CDPATH',
      'GCONV_PATH',
      'LOCPATH',
      // how the shell splits and traces words
      'IFS',
      'SHELLOPTS',
      'BASHOPTS',
      'PS4',
      'PROMPT_COMMAND',
      // where programs find their settings, which can name programs to run
      'HOME',
      'XDG_\\w*',
      'GIT',
      'GIT_\\w*',
      'SSH_\\w*',
      'EDITOR',
      'VISUAL',
      'PAGER',
      'MANPAGER',
      'LESSOPEN',
      'LESSCLOSE',
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

/** Whether setting or removing this variable can change what a later command runs. */
export function isRiskyVariable(name: string): boolean {
  return RISKY_VARIABLE.test(name)
}
