import { format } from 'node:util'
import { enableCompileCache } from '../compile-cache'
import { ExitCode, exitWhenFlushed } from './exit'
import { mecatl } from './main'
import { printError } from './print'

// The headless entry: the same core as the window, for scripting, smoke tests and CI. What is
// imported above is small; each command loads the rest on first use (main.ts), compiled from the
// cache where the runtime has one.
enableCompileCache()

// A reader that closed early (`| head`) must not turn into an unhandled 'error' event.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)

mecatl(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    printError(`mecatl: unexpected failure: ${format(error)}`)
    return exitWhenFlushed(ExitCode.failed)
  }
)
