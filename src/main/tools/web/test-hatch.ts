/**
 * TEST ONLY. `MECATL_TEST_ALLOW_LOOPBACK=1` in the environment of the process that runs the core
 * lets the web tools reach 127.0.0.0/8 and ::1, so tests can serve pages on loopback. Nothing
 * else turns it on: not the settings file, not a project, not the model (its commands run in
 * child processes and cannot change this process's environment). Private, link-local and every
 * other non-public range stay refused even then.
 */
export function testLoopbackHatch(env: NodeJS.ProcessEnv): boolean {
  if (env.MECATL_TEST_ALLOW_LOOPBACK !== '1') return false
  process.stderr.write(
    'Mecatl: MECATL_TEST_ALLOW_LOOPBACK=1, the web tools may reach 127.0.0.1 (for tests only)\n'
  )
  return true
}
