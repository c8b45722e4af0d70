import { createReducerStore } from '../../lib/reducer-store'
import { initialReplayState, replayReducer } from './replay-reducer'

export const useReplay = createReducerStore(replayReducer, initialReplayState)
