import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { checkFolder } from '../workspace/check-folder'

/** The tools as the model would be offered them under the settings in force. */
export function toolsApi({
  catalog,
  catalogFor
}: Pick<Services, 'catalog' | 'catalogFor'>): SliceHandlers<'tools'> {
  return {
    'tools.list': async ({ workspace }) => ({
      tools: (workspace ? await catalogFor(await checkFolder(workspace)) : catalog).describe()
    })
  }
}
