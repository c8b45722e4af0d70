import { useEffect, useRef, useState, type JSX } from 'react'
import { dropDraft, offeredDraft } from '../checkpoints'
import { CheckpointsOffBadge } from '../checkpoints'
import { baseName } from '../../lib/format'
import { useVisibleApprovals } from '../approvals'
import { usePromptPalette } from '../mcp'
import { useMentionFinder } from '../mention'
import { PlanningBanner, PlanningToggle, TaintBadge } from '../safety'
import {
  ReplayBar,
  SessionMenu,
  useProjectFolder,
  useReplayed,
  useSelectedSession
} from '../sessions'
import {
  loadSession,
  sendMessage,
  stopTurn,
  useAvailableModels,
  useChat,
  useDefaultModel
} from './chat-store'
import { Composer } from './composer'
import { useAttachmentsUi } from '../attachments'
import { ModelPicker } from './model-picker'
import { editLastOnUp } from './edit-last'
import { QueueList } from './queue-list'
import { queueMessage, useQueueRunner } from './queue-runner'
import { JobsToggle } from '../jobs'
import { InstructionsLine, QuestionCard } from '../skills'
import { HeaderMeters } from '../meters'
import { TranscriptView } from './transcript-view'
import { FindBar } from '../find'
import { SidebarToggle } from './sidebar-toggle'
import { useHeaderFit } from './header-fit'
import { HeaderOverflow } from './header-overflow'
import { ReasoningPicker } from './reasoning-picker'
import type { TranscriptEntry } from './transcript-reducer'
import './chat.css'

const suggestions = [
  'Explain what this project does',
  'List the files here and what each is for',
  'Read the README and suggest improvements'
]

/** True while the model is thinking and nothing on screen shows progress yet. */
function waitingForModel(entries: TranscriptEntry[]): boolean {
  const last = entries[entries.length - 1]?.item
  if (!last || last.kind === 'user' || last.kind === 'turn-end') return true
  if (last.kind === 'assistant') return !last.streaming
  if (last.kind === 'compaction') return true
  if (last.kind === 'restore') return false
  return last.call.state !== 'running' && last.call.state !== 'awaiting-approval'
}

/** The selected session: header with model, transcript, composer. */
export function ChatView(): JSX.Element {
  const chat = useChat((s) => s.state)
  const session = useSelectedSession()
  const folder = useProjectFolder()
  const approvalOpen = useVisibleApprovals().length > 0
  const [draft, setDraft] = useState('')
  const [followSignal, setFollowSignal] = useState(0)
  const palette = usePromptPalette(draft, setDraft)
  const replay = useReplayed(chat.sessionId, chat.entries)
  const replaying = replay.replaying
  useQueueRunner()
  const header = useRef<HTMLElement>(null)
  const fit = useHeaderFit(header)
  const models = useAvailableModels()
  const defaultModel = useDefaultModel()
  const attachUi = useAttachmentsUi(chat.sessionId, chat.status !== 'ready', {
    models,
    defaultModel
  })
  const mention = useMentionFinder(draft, setDraft, attachUi.attachResource)

  // A rewound conversation offers back the message it was rewound from: read while rendering
  // the newly shown session, let go of once shown.
  const [draftFor, setDraftFor] = useState(chat.sessionId)
  if (draftFor !== chat.sessionId) {
    setDraftFor(chat.sessionId)
    const handed = offeredDraft(chat.sessionId)
    if (handed !== null) setDraft(handed)
  }
  useEffect(() => dropDraft(chat.sessionId), [chat.sessionId])

  // Escape stops the turn from anywhere, except while an approval is asked: there it means
  // "let me decide", and the modal moves focus to Deny instead.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || approvalOpen) return
      if (!useChat.getState().state.running) return
      event.preventDefault()
      void stopTurn()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [approvalOpen])

  const send = (): void => {
    const text = draft
    const now = useChat.getState().state
    const attachments = attachUi.forSend(session?.model ?? null, now.running || now.sending)
    if (attachments === null || (!text.trim() && attachments.length === 0)) return
    // While a turn runs, Enter queues: the message goes when the turn ends (see queue-runner).
    if (now.sessionId && (now.running || now.sending)) {
      queueMessage(now.sessionId, text)
      setDraft('')
      return
    }
    setFollowSignal((n) => n + 1)
    setDraft('')
    void sendMessage(text, attachments).then((ok) => {
      // Give the text back if it never reached the session; the attachments stay until it did.
      if (!ok) setDraft((current) => current || text)
      else attachUi.sent()
    })
  }

  const running = chat.running || chat.sending
  const placeholder = chat.running
    ? 'Mecatl is working… Enter to queue a message, Esc to stop'
    : `Message Mecatl about ${baseName(folder)}`

  const empty =
    chat.status === 'ready' ? (
      <div className="chat-empty" data-testid="chat-empty">
        <h2 className="chat-empty__title">What should we work on?</h2>
        <p className="chat-empty__text">
          Ask Mecatl to read, explain or change files in{' '}
          <span className="mono">{baseName(folder)}</span>. It asks before it changes anything.
        </p>
        <div className="chat-empty__suggestions">
          {suggestions.map((text) => (
            <button key={text} type="button" className="chip" onClick={() => setDraft(text)}>
              {text}
            </button>
          ))}
        </div>
      </div>
    ) : null

  return (
    <section className="chat" aria-label="Conversation">
      <header className="chat__header" ref={header} data-fit={fit}>
        <SidebarToggle />
        <h1 className="chat__title" data-testid="session-title" title={session?.title}>
          {session?.title || 'New session'}
        </h1>
        {session?.profile === 'no-fs' && (
          <span
            className="badge"
            data-testid="session-profile"
            title="This session has no file, shell or delegation tools"
          >
            No files
          </span>
        )}
        {chat.running && (
          <span className="chat__status" data-testid="turn-running">
            <span className="spinner-dot" /> Working
          </span>
        )}
        {fit < 2 && <InstructionsLine />}
        <HeaderMeters session={session} running={chat.running} />
        <div className="chat__controls">
          {fit < 2 && <CheckpointsOffBadge />}
          <TaintBadge session={session} />
          <PlanningToggle session={session} />
          <ModelPicker session={session} reasoning={fit < 3} />
          <HeaderOverflow folded={fit >= 2}>
            {fit >= 3 && <ReasoningPicker model={session?.model ?? defaultModel} />}
            {fit >= 2 && <InstructionsLine />}
            {fit >= 2 && <CheckpointsOffBadge />}
            <SessionMenu session={session} total={chat.entries.length} running={chat.running} />
          </HeaderOverflow>
          <JobsToggle />
        </div>
      </header>
      <PlanningBanner session={session} running={chat.running} />
      <FindBar sessionId={chat.sessionId} loaded={chat.status === 'ready' && chat.earlier === 0} />

      {chat.status === 'error' ? (
        <div className="chat__load-error" role="alert">
          <p>This session could not be loaded: {chat.error}</p>
          <button
            type="button"
            className="button"
            onClick={() => chat.sessionId && void loadSession(chat.sessionId, true)}
          >
            Try again
          </button>
        </div>
      ) : (
        <TranscriptView
          sessionId={chat.sessionId}
          entries={replay.items}
          thinking={!replaying && running && waitingForModel(chat.entries)}
          empty={empty}
          followSignal={followSignal}
          running={running}
        />
      )}

      {replaying ? (
        <ReplayBar />
      ) : (
        <Composer
          value={draft}
          onChange={setDraft}
          onSend={send}
          onStop={() => void stopTurn()}
          running={chat.running}
          stopping={chat.stopping}
          disabled={chat.status !== 'ready'}
          queueing={running}
          placeholder={placeholder}
          error={chat.sendError}
          above={
            <>
              <QuestionCard sessionId={chat.sessionId} />
              <QueueList sessionId={chat.sessionId} />
              {palette.element}
              {mention.element}
              {attachUi.notice}
            </>
          }
          onKeyDownFirst={(event) =>
            mention.onKeyDown(event) || palette.onKeyDown(event) || editLastOnUp(event, draft)
          }
          onCaret={mention.onCaret}
          attach={attachUi.attach}
        />
      )}
    </section>
  )
}
