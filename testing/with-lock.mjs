// `node with-lock.mjs LOCK_DIR -- COMMAND [ARGS...]`: runs COMMAND while holding LOCK_DIR, as
// flock(1) would, on any platform Node runs on. Tests use it so that two vitest workers which
// both find out/ older than the sources do not run the build into the same folder at once: the
// second waits, then finds the build fresh. Not shipped: only test helpers run it.
//
// mkdir is the lock because only one process can create a directory. The holder writes its pid
// into it; a waiter that finds the pid dead (the holder was killed) takes the lock over by
// renaming it aside first, so two waiters cannot both remove it and both go in.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Long enough for a cold electron-vite build on a loaded two-core machine. */
const WAIT_MS = 300_000
const POLL_MS = 50

const [lockDir, separator, command, ...args] = process.argv.slice(2)
if (!lockDir || separator !== '--' || !command) {
  process.stderr.write('usage: with-lock.mjs LOCK_DIR -- COMMAND [ARGS...]\n')
  process.exit(2)
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

function holderPid() {
  return holderPidIn(lockDir)
}

function tryLock() {
  try {
    mkdirSync(lockDir)
  } catch (error) {
    if (error.code !== 'EEXIST') throw error
    return false
  }
  writeFileSync(path.join(lockDir, 'pid'), String(process.pid))
  return true
}

function removeIfAbandoned() {
  const pid = holderPid()
  // No pid yet: its holder is between mkdir and writing it. Leave it be.
  if (!pid || alive(pid)) return
  const aside = `${lockDir}.stale-${process.pid}`
  try {
    renameSync(lockDir, aside)
  } catch {
    return
  }
  // Renamed a lock another waiter had already retaken? Give it back. Only a third process
  // taking the lock in this instant could stop that, and then the rename fails loudly.
  if (holderPidIn(aside) !== pid) {
    renameSync(aside, lockDir)
    return
  }
  rmSync(aside, { recursive: true, force: true })
}

function holderPidIn(dir) {
  try {
    return Number(readFileSync(path.join(dir, 'pid'), 'utf8'))
  } catch {
    return null
  }
}

const deadline = Date.now() + WAIT_MS
while (!tryLock()) {
  if (Date.now() > deadline) {
    process.stderr.write(
      `with-lock: ${lockDir} has been held by pid ${holderPid()} for over ${WAIT_MS / 1000} s; ` +
        'if no build is running, remove that folder and try again\n'
    )
    process.exit(1)
  }
  removeIfAbandoned()
  sleep(POLL_MS)
}

const result = spawnSync(command, args, { stdio: 'inherit' })
rmSync(lockDir, { recursive: true, force: true })
if (result.error) process.stderr.write(`with-lock: ${command}: ${result.error.message}\n`)
process.exit(result.status ?? 1)
