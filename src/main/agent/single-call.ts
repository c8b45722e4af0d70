import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'
import { dispatch, type DispatchResult } from './dispatcher'
import type { TurnAssembler } from './turn-assembly'

/**
 * One tool call outside any session (`mecatl call`): through the same gate and dispatcher a
 * session's calls go through, with nobody to ask. `input` is the JSON text, as the model sends it.
 */
export async function callOnce(
  turns: TurnAssembler,
  workspace: string,
  name: string,
  input: string
): Promise<DispatchResult> {
  const { catalog, gate } = await turns.forCall(workspace)
  const jail = new PathJail(workspace)
  const [result] = await dispatch([{ id: 'cli-call', name, input }], {
    sessionId: 'cli',
    catalog,
    gate,
    context: {
      sessionId: 'cli',
      jail,
      reads: new ReadVersions(),
      signal: new AbortController().signal,
      // The input is the command line's own: a person's, or their script's.
      provenance: () => ({ trust: 'trusted', sessionId: 'cli', folder: jail.root })
    },
    onUpdate: () => undefined
  })
  if (!result) throw new Error(`the call to ${name} returned no result`)
  return result
}
