import { createReducerStore } from '../../lib/reducer-store'
import { initialReplayState, replayReducer, replayedItems } from './replay-reducer'

export const useReplay = createReducerStore(replayReducer, initialReplayState)

/**
 * What the transcript of `sessionId` shows while replay may be stepping through it: the items
 * shown so far, and whether it is that session being replayed.
 */
export function useReplayed<T>(
  sessionId: string | null,
  items: T[]
): { replaying: boolean; items: T[] } {
  const replay = useReplay((s) => s.state)
  return {
    replaying: replay.sessionId !== null && replay.sessionId === sessionId,
    items: replayedItems(replay, sessionId, items)
  }
}
