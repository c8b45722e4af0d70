// `mecatl serve` for the e2e specs that serve their own web pages on 127.0.0.1: the same command
// with the web tools' address guard widened to loopback. It is bundled on its own into
// out/testing/ (testing/testing.vite.config.ts, built by e2e/fixtures/testing-build.ts),
// never into out/main/, so the app itself has no way at all to reach loopback.
import { parseCliArgs } from '../src/main/cli/args'
import { serveCommand } from '../src/main/cli/commands/serve'
import { ExitCode, exitWhenFlushed } from '../src/main/cli/exit'

process.stderr.write('Mecatl (testing build): the web tools may reach 127.0.0.1 and ::1\n')

serveCommand(parseCliArgs(['serve', ...process.argv.slice(2)]), {
  webGuard: { allowLoopback: true }
}).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    console.error('mecatl serve (testing build): unexpected failure:', error)
    return exitWhenFlushed(ExitCode.failed)
  }
)
