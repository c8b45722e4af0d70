import { afterEach, describe, expect, it } from 'vitest'
import { SmallSpawner, type SpawnRequest } from './small-spawner'

const spawners: SmallSpawner[] = []
afterEach(() => {
  for (const spawner of spawners.splice(0)) spawner.stop()
})

function spawner(): SmallSpawner {
  const made = new SmallSpawner()
  spawners.push(made)
  return made
}

const request = (
  file: string,
  args: string[],
  extra: Partial<SpawnRequest> = {}
): SpawnRequest => ({
  file,
  args,
  cwd: process.cwd(),
  env: { PATH: process.env.PATH },
  binary: false,
  maxBuffer: 1 << 20,
  ...extra
})

describe('running programs from a small helper process', () => {
  it('passes input, arguments and the environment, and gives back text or exact bytes', async () => {
    const runner = spawner()
    const echoed = await runner.run(
      request('sh', ['-c', 'printf "%s|%s|" "$1" "$MARK"; cat', 'sh', 'a b'], {
        env: { PATH: process.env.PATH, MARK: 'ü' },
        input: 'from stdin'
      })
    )
    expect(echoed).toMatchObject({ code: null, stdout: 'a b|ü|from stdin' })
    const bytes = Buffer.from([0, 255, 10, 13, 128])
    const raw = await runner.run(request('cat', [], { input: bytes, binary: true }))
    expect(Buffer.isBuffer(raw.stdout)).toBe(true)
    expect(raw.stdout).toEqual(bytes)
  })

  it('says how a program failed: its exit status and what it printed, or that it is missing', async () => {
    const runner = spawner()
    const failed = await runner.run(request('sh', ['-c', 'echo bad >&2; exit 3']))
    expect(failed).toMatchObject({ code: 3, stderr: 'bad\n' })
    const missing = await runner.run(request('no-such-program-mecatl', []))
    expect(missing.code).toBe('ENOENT')
  })

  it('still answers every request when the helper dies with them in hand', async () => {
    const runner = spawner()
    await runner.run(request('true', []))
    const pending = Array.from({ length: 5 }, (_, i) =>
      runner.run(request('sh', ['-c', `sleep 0.2; echo ${i}`]))
    )
    runner.stop()
    const answers = await Promise.all(pending)
    expect(answers.map((a) => a.stdout)).toEqual(['0\n', '1\n', '2\n', '3\n', '4\n'])
    // Later requests run directly.
    expect((await runner.run(request('echo', ['after']))).stdout).toBe('after\n')
  })
})
