import { realpathSync } from 'node:fs'
import { ShadowStore, type Checkpoint } from '../../checkpoints/shadow-store'
import { UsageError, type CliArgs } from '../args'
import { checkpointDefaults, type CheckpointSettings } from '../../../shared/checkpoints'
import { settingsSchema } from '../../../shared/settings'
import { readSettingsFile } from '../../settings/settings-file'
import { requireValidSettings, requireWorkspace } from '../context'
import { userSettingsFile } from '../settings-check'
import path from 'node:path'
import { printError, printJson, printLine, writeOut } from '../print'

const VERBS =
  'checkpoints list [--session ID] | checkpoints diff ID | checkpoints restore ID [--files PATH…]'

/**
 * `checkpoints list|diff|restore`: the checkpoints Mecatl took of a folder (--workspace, default
 * the current folder), kept in MECATL_HOME, never in the folder's own .git.
 */
export async function checkpointsCommand(args: CliArgs): Promise<number> {
  const [verb, id, ...rest] = args.positionals
  if (!verb) throw new UsageError(`checkpoints takes a verb: ${VERBS}`)
  if (rest.length > 0 && !(verb === 'restore' && args.files)) {
    throw new UsageError(`unexpected ${rest.join(' ')}: ${VERBS}`)
  }
  const folder = realpathSync(args.workspace ? requireWorkspace(args) : process.cwd())
  const dataDir = await requireValidSettings(args)
  const store = new ShadowStore({
    root: path.join(dataDir, 'checkpoints'),
    workspace: folder,
    // The window's limit: a restore's own checkpoint keeps what the window's checkpoints keep.
    maxFileBytes: (await checkpointSettings(args, dataDir)).max_file_mib * 1024 * 1024
  })
  if (verb === 'list') {
    if (id) throw new UsageError(`checkpoints list takes no id: ${VERBS}`)
    const all = (await store.list()).filter((c) => !args.session || c.sessionId === args.session)
    if (args.json) printJson(all, 2)
    else if (all.length === 0) printLine(`No checkpoints of ${folder}.`)
    else for (const checkpoint of all) printLine(listLine(checkpoint))
    return 0
  }
  if (verb !== 'diff' && verb !== 'restore')
    throw new UsageError(`unknown verb "${verb}": ${VERBS}`)
  if (!id) throw new UsageError(`checkpoints ${verb} needs a checkpoint id (see checkpoints list)`)
  const found = (await store.list()).find((c) => c.id.startsWith(id))
  if (!found) {
    printError(`mecatl: there is no checkpoint ${id} of ${folder}; checkpoints list shows them`)
    return 1
  }
  if (verb === 'diff') {
    const changes = await store.changes(found.id)
    if (args.json) printJson({ id: found.id, changes }, 2)
    else writeOut(await store.diff(found.id))
    return 0
  }
  const files = args.files ? rest : undefined
  const plan = await store.plan(found.id, files)
  if (plan.conflicts.length > 0 && !args.yes) {
    printError(
      `mecatl: these files changed since Mecatl's last checkpoint (outside the agent), and the restore would replace them:\n${plan.conflicts.map((f) => `  ${f}`).join('\n')}\nRun again with --yes to replace them, or with --files to restore only the others.`
    )
    return 1
  }
  const { undo, changes, notRestored } = await store.restore(found.id, files)
  if (args.json) {
    console.log(
      JSON.stringify({ restored: found.id, undo: undo.id, changes, notRestored }, null, 2)
    )
  } else {
    console.log(
      `Restored ${folder} to ${found.id.slice(0, 12)} (${found.reason}): ${changes.length} ${changes.length === 1 ? 'file' : 'files'}.`
    )
    for (const skipped of plan.notCovered)
      console.log(`  not covered: ${skipped.path} (${skipped.why})`)
    for (const left of notRestored) console.log(`  not put back: ${left.path} (${left.why})`)
    console.log(`To undo: checkpoints restore ${undo.id.slice(0, 12)}`)
  }
  if (notRestored.length === 0) return 0
  // Part of it was not done: the exit code says so, whatever the output's form.
  const count = notRestored.length === 1 ? '1 file was' : `${notRestored.length} files were`
  console.error(
    `mecatl: ${count} not put back and left as ${notRestored.length === 1 ? 'it is' : 'they are'} (${args.json ? 'notRestored' : 'listed above'}); restore again to try once more, or undo the restore`
  )
  return 1
}

function listLine(checkpoint: Checkpoint): string {
  const when = checkpoint.at ? new Date(checkpoint.at).toISOString() : '?'
  const session = checkpoint.sessionId ? `  session ${checkpoint.sessionId.slice(0, 8)}` : ''
  return `${checkpoint.id.slice(0, 12)}  ${when}  ${checkpoint.reason}${session}`
}

/** The checkpoint settings of the person's settings file (already proved valid). */
async function checkpointSettings(args: CliArgs, dataDir: string): Promise<CheckpointSettings> {
  const file = userSettingsFile(dataDir, args.config ? path.resolve(args.config) : undefined)
  const read = await readSettingsFile(file, settingsSchema)
  return read.kind === 'valid' ? read.value.checkpoints : checkpointDefaults
}
