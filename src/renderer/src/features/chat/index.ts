// The conversation as the rest of the window sees it: the chat view, what others read of the
// shown session and the models, the actions that load and feed it, and the diff view other
// features show changes with.
export {
  applyChatEvent,
  loadModels,
  loadSession,
  reloadShownSession,
  useAvailableModels,
  useDefaultModel,
  useShownSessionId,
  useWholeTranscriptLoaded
} from './chat-store'
export { ChatView } from './chat-view'
export { preloadReplies } from './message-assistant'
export { modelKey, sameModel } from './models-reducer'
export type { TranscriptEntry } from './transcript-reducer'
