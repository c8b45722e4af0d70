import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Settings } from '../../shared/settings'
import { checkAttachments, imageTaker } from '../agent/attachment-check'
import type { Services } from '../core'
import { blockedMessage, settingsHealth } from '../settings/settings-health'
import { expandMessage, type LaunchPlaces } from '../skills/message-expansion'

type ChatNeeds = Pick<
  Services,
  | 'options'
  | 'sessions'
  | 'settings'
  | 'projectSettings'
  | 'providers'
  | 'userDir'
  | 'mcp'
  | 'parallel'
>

/** Live sessions: sending, editing, branches, stopping, and what a turn is run with. */
export function chatApi(needs: ChatNeeds): SliceHandlers<'chat'> {
  const { sessions, settings, projectSettings, userDir } = needs
  const places: LaunchPlaces = {
    operatorDirs: needs.options.skillsDirs,
    commands: needs.options.commands
  }
  /**
   * The settings read again before every turn: an edit made in an editor applies from this
   * message on, and a broken file with nothing valid to fall back on stops the turn before it
   * starts. Answers the snapshot the request then works with.
   */
  const settingsForTurn = async (workspace: string): Promise<Settings> => {
    const health = await settingsHealth(settings, projectSettings, workspace, true)
    if (health.blocked) throw new RpcError('conflict', blockedMessage(health))
    return settings.snapshot()
  }
  return {
    // A `/command args` of a command file or skill is expanded here, so every client gets it.
    'session.send': async ({ sessionId, text, attachments }) => {
      const { workspace, jail, model } = sessions.get(sessionId)
      const current = await settingsForTurn(workspace)
      const checked = attachments?.length
        ? await checkAttachments(attachments, jail, imageTaker(model, current), (server, uri) =>
            needs.mcp.readResource(workspace, server, uri)
          )
        : []
      const expanded = await expandMessage(workspace, userDir, text, places)
      if (expanded.provenance) sessions.admitUntrusted(sessionId)
      return { turnId: await sessions.send(sessionId, expanded.text, checked) }
    },
    // An edit is sent as a message is: the settings checked and a `/command` expanded.
    'session.edit': async ({ sessionId, itemKey, text }) => {
      const { workspace } = sessions.get(sessionId)
      await settingsForTurn(workspace)
      const expanded = await expandMessage(workspace, userDir, text, places)
      if (expanded.provenance) sessions.admitUntrusted(sessionId)
      return { turnId: await sessions.edit(sessionId, itemKey, expanded.text) }
    },
    'session.selectBranch': async ({ sessionId, itemKey }) =>
      sessions.selectBranch(sessionId, itemKey).summary(),
    'session.cancel': async ({ sessionId }) => ({ cancelled: sessions.cancel(sessionId) }),
    'session.setPlanning': async ({ sessionId, planning }) =>
      sessions.setPlanning(sessionId, planning).summary(),
    'session.setModel': async ({ sessionId, model }) => {
      const known = needs.providers.knows(model, settings.snapshot())
      if (!known) throw new RpcError('not_found', `there is no provider "${model.providerId}"`)
      return sessions.setModel(sessionId, model).summary()
    },
    'parallel.take': async ({ sessionId, runId, branch }) => {
      try {
        return await needs.parallel.take(sessionId, runId, branch)
      } catch (error) {
        throw new RpcError('conflict', error instanceof Error ? error.message : String(error))
      }
    }
  }
}
