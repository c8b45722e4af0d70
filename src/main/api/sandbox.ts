import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { describeSandbox } from '../sandbox/sandbox-status'
import { checkFolder } from '../workspace/check-folder'

/** Where Shell stands under the settings in force, and what a confined command sees. */
export function sandboxApi({
  sandbox,
  settings
}: Pick<Services, 'sandbox' | 'settings'>): SliceHandlers<'sandbox'> {
  return {
    'sandbox.status': async () => {
      const status = await sandbox.prepare(settings.snapshot())
      return { state: status.state, text: describeSandbox(status) }
    },
    'sandbox.view': async ({ workspace }) =>
      sandbox.view(
        settings.snapshot(),
        workspace === undefined ? null : await checkFolder(workspace)
      )
  }
}
