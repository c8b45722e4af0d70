// A preload for tests (`NODE_OPTIONS=--import=<this file>`) that records every CommonJS module a
// process loads: at its exit, their paths, one a line, go to the file MECATL_MODULE_LOG names.
// The first process to start claims the file; processes it starts with the variable (none do:
// servers and commands get an environment built from allowed names) leave it alone.
// testing/loaded-modules.ts reads it. Not shipped: only test files use it.
import { writeFileSync } from 'node:fs'
import Module from 'node:module'

const log = process.env.MECATL_MODULE_LOG

function claim(file) {
  try {
    writeFileSync(file, '', { flag: 'wx' })
    return true
  } catch {
    return false
  }
}

if (log && claim(log)) {
  const loaded = []
  const load = Module.prototype.load
  Module.prototype.load = function (filename) {
    loaded.push(filename)
    return load.call(this, filename)
  }
  process.on('exit', () => writeFileSync(log, loaded.join('\n')))
}
