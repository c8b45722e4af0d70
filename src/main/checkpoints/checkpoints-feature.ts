import type { Feature } from '../feature'
import type { SettingsStore } from '../settings/settings-store'
import { Checkpoints } from './checkpoints'

/**
 * The project folders' checkpoints, in shadow stores in the data directory. Started before the
 * jobs, so it stops after them: a background job that ends while they stop is still checkpointed.
 */
export const checkpointsFeature: Feature<
  { options: { dataDir: string }; env: NodeJS.ProcessEnv; settings: SettingsStore },
  { checkpoints: Checkpoints }
> = {
  name: 'checkpoints',
  start({ options, env, settings }) {
    const checkpoints = new Checkpoints(options.dataDir, env, () => settings.snapshot().checkpoints)
    return { provides: { checkpoints }, stop: () => checkpoints.settled() }
  }
}
