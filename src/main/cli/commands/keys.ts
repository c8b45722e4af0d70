import { KeyFile } from '../../providers/key-file'
import { dataDirectory } from '../../settings/data-dir'
import { envVarName } from '../../../shared/settings'
import { UsageError, type CliArgs } from '../args'
import { requireValidSettings } from '../context'
import { ExitCode } from '../exit'
import { KeyEntryCancelled, KeyInputError, readKey } from './read-key'

const keysUsage =
  'keys takes one verb: keys set NAME (the key on stdin, or typed unseen), keys list, keys remove NAME'

/**
 * `keys set|list|remove`: the key file of the data directory (provider-keys.json, mode 0600), the
 * one browser mode's Settings write, from the command line. A key is only ever read from stdin,
 * never from an argument (where it would sit in the shell's history and in `ps`), and never
 * printed. A provider whose api_key_env (or api_key_secret) names a stored key uses it.
 */
export async function keysCommand(args: CliArgs): Promise<number> {
  const [verb, name, ...extra] = args.positionals
  if (extra.length > 0) throw new UsageError(keysUsage)
  await requireValidSettings(args)
  const file = new KeyFile(dataDirectory())
  try {
    if (verb === 'list' && name === undefined) return list(file, args.json)
    if (verb === 'set' && name !== undefined) return await set(file, checkedName(name))
    if (verb === 'remove' && name !== undefined) return await remove(file, name)
  } catch (error) {
    if (error instanceof UsageError) throw error
    if (error instanceof KeyInputError) {
      console.error(`mecatl: ${error.message}`)
      return ExitCode.usage
    }
    if (error instanceof KeyEntryCancelled) {
      console.error(`mecatl: ${error.message}`)
      return ExitCode.cancelled
    }
    console.error(`mecatl: ${error instanceof Error ? error.message : String(error)}`)
    return ExitCode.failed
  }
  throw new UsageError(keysUsage)
}

function checkedName(name: string): string {
  if (!envVarName.safeParse(name).success) {
    throw new UsageError(
      `a key's name is the name of an environment variable: letters, digits and _, not starting with a digit, such as OPENAI_API_KEY; the key itself goes on stdin, never on the command line (the name given is not repeated here, in case it was the key)`
    )
  }
  return name
}

async function set(file: KeyFile, name: string): Promise<number> {
  // Checked before a person types the key, not after.
  file.mode()
  const key = await readKey(name)
  await file.store(name, key)
  console.log(`Stored ${name} in ${file.path} (readable only by you).`)
  return ExitCode.ok
}

function list(file: KeyFile, json: boolean): number {
  const mode = file.mode()
  const names = file.names()
  if (json) {
    const shown = mode === null ? null : `0${mode.toString(8)}`
    console.log(JSON.stringify({ file: file.path, mode: shown, names }))
    return ExitCode.ok
  }
  if (mode === null) {
    console.log(`No keys stored: ${file.path} does not exist yet (mecatl keys set NAME makes it).`)
    return ExitCode.ok
  }
  console.log(`${file.path} (mode 0${mode.toString(8)}, readable only by you)`)
  if (names.length === 0) console.log('No keys stored.')
  for (const stored of names) console.log(stored)
  return ExitCode.ok
}

async function remove(file: KeyFile, name: string): Promise<number> {
  // A name stored from Settings (such as local.api_key) can be removed by its exact name.
  if (!file.names().includes(name)) checkedName(name)
  if (!(await file.remove(name))) {
    console.error(`mecatl: no key named ${name} is stored in ${file.path}; nothing was removed.`)
    return ExitCode.failed
  }
  console.log(`Removed ${name} from ${file.path}.`)
  return ExitCode.ok
}
