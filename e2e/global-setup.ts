import { spawnSync } from 'node:child_process'
import path from 'node:path'

/** Builds the app once before any spec, so every test runs what is in src/. */
export default function globalSetup(): void {
  const root = path.resolve(__dirname, '..')
  const result = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], {
    cwd: root,
    stdio: 'inherit'
  })
  if (result.status !== 0) {
    throw new Error(
      `node scripts/ensure-built.mjs failed (exit ${String(result.status)}); see the build log above`
    )
  }
}
