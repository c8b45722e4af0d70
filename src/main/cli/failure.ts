import { ProviderConfigError } from '../providers/create-provider'
import { KeyFileError } from '../providers/key-file'
import { dataDirectory, DataDirError } from '../settings/data-dir'
import { unusableStore } from '../store/store-failure'
import { storePath } from '../store/store'
import { ExitCode } from './exit'
import { McpCollisionError } from './mcp-collisions'
import { printError } from './print'
import { SettingsInvalidError } from './settings-check'

/**
 * The exit code of a command that failed with `error`, once its sentence is on stderr: 2 for a
 * mistake in the settings or the data folder (nothing ran), 1 for a provider, key or database
 * that cannot be used. Anything else is not ours to explain and is thrown on.
 */
export function failureExitCode(error: unknown): number {
  if (
    error instanceof SettingsInvalidError ||
    error instanceof DataDirError ||
    error instanceof McpCollisionError
  ) {
    printError(`mecatl: ${error.message}`)
    return ExitCode.usage
  }
  if (error instanceof ProviderConfigError || error instanceof KeyFileError) {
    printError(`mecatl: ${error.message}`)
    return ExitCode.failed
  }
  // Found damaged at the start, or only by a read once the command ran.
  const store = unusableStore(error, storePath(dataDirectory()))
  if (store) {
    printError(`mecatl: ${store.message}`)
    return ExitCode.failed
  }
  throw error
}
