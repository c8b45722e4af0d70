import type { JSX, ReactNode } from 'react'
import type { SandboxView } from '../../../../shared/sandbox'
import {
  homeDefaultsSplit,
  networkReach,
  rootNote,
  sightIntro,
  socketsReach,
  type Reach,
  type Tone
} from './sandbox-sight-model'
import { Check } from '../../ui/check'

const toneBadge: Record<Tone, string> = {
  safe: 'badge--green',
  neutral: 'badge--neutral',
  open: 'badge--amber',
  wide: 'badge--red'
}

function Line({
  what,
  badge,
  tone,
  testId,
  children
}: {
  what: string
  badge: string
  tone: Tone
  testId: string
  children: ReactNode
}): JSX.Element {
  return (
    <div className="sandbox-sight__line" data-testid={testId}>
      <dt className="sandbox-sight__what">
        <span>{what}</span>
        <span className={`badge ${toneBadge[tone]}`}>{badge}</span>
      </dt>
      <dd className="sandbox-sight__detail">{children}</dd>
    </div>
  )
}

function Paths({ paths }: { paths: readonly string[] }): JSX.Element {
  return (
    <ul className="sandbox-sight__paths">
      {paths.map((p) => (
        <li key={p} className="mono">
          {p}
        </li>
      ))}
    </ul>
  )
}

function ReachLine(props: { what: string; reach: Reach; testId: string }): JSX.Element {
  return (
    <Line what={props.what} badge={props.reach.badge} tone={props.reach.tone} testId={props.testId}>
      <p className="sandbox-sight__why">{props.reach.text}</p>
    </Line>
  )
}

function HomeLine({
  view,
  defaultsInForce,
  defaultsOn,
  onDefaults
}: {
  view: SandboxView
  defaultsInForce: boolean
  defaultsOn: boolean
  onDefaults: (on: boolean) => void
}): JSX.Element {
  const { here, elsewhere } = homeDefaultsSplit(view)
  return (
    <Line
      what="Your home folder"
      badge={here.length > 0 ? 'empty, except' : 'empty'}
      tone="safe"
      testId="sandbox-sight-home"
    >
      <p className="mono sandbox-sight__path">{view.home}</p>
      {here.length > 0 ? (
        <>
          <p className="sandbox-sight__why">
            Nothing of it is there but these toolchains and caches, read-only:
          </p>
          <ul className="sandbox-sight__defaults" data-testid="sandbox-home-defaults">
            {here.map((entry) => (
              <li key={entry.path}>
                <span className="mono">{entry.path}</span>
                <span className="sandbox-sight__why">
                  {entry.filtered && <span className="badge badge--blue">filtered</span>}
                  {entry.why}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="sandbox-sight__why">
          {defaultsInForce
            ? 'None of the usual toolchains and caches is here, so nothing of it is there but what you add.'
            : 'Nothing of it is there but what you add: the usual toolchains and caches are left out.'}
        </p>
      )}
      {elsewhere.length > 0 && defaultsInForce && (
        <details className="sandbox-sight__more">
          <summary>{elsewhere.length} more, shown when they exist</summary>
          <ul className="sandbox-sight__defaults">
            {elsewhere.map((entry) => (
              <li key={entry.path}>
                <span className="mono">{entry.path}</span>
                <span className="sandbox-sight__why">{entry.why}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <Check
        className="tool-switches__label sandbox-sight__switch"
        testId="sandbox-home-defaults-switch"
        checked={defaultsOn}
        onChange={onDefaults}
      >
        Show the usual toolchains and caches of my home folder
      </Check>
    </Line>
  )
}

/**
 * "What a command can see": the project, its git folder, the system, the home directory, what a
 * person added, sockets, network and variables, each said once, as the settings in force have it.
 */
export function SandboxSight({
  view,
  pending,
  defaultsInForce,
  defaultsOn,
  onDefaults
}: {
  view: SandboxView
  /** The draft holds changes: this is what commands see until they are saved. */
  pending: boolean
  /** `home_defaults` as saved (what the view shows) and as the draft has it (the switch). */
  defaultsInForce: boolean
  defaultsOn: boolean
  onDefaults: (on: boolean) => void
}): JSX.Element {
  const intro = sightIntro(view.state)
  const root = rootNote(view)
  const sockets = socketsReach(view)
  const readable = [...view.readable, ...(view.project?.readable ?? [])]
  const writable = [...view.writable, ...(view.project?.writable ?? [])]
  return (
    <div className="sandbox-sight" data-testid="sandbox-sight">
      <h4 className="sandbox-settings__subtitle">What a command can see</h4>
      <p className={intro.warn ? 'field-error' : 'field__hint'} data-testid="sandbox-sight-intro">
        {intro.text}
        {pending && ' It shows the settings in force: your changes count once saved.'}
      </p>
      <dl className="sandbox-sight__lines">
        {view.workspace ? (
          <>
            <Line what="This project" badge="read-write" tone="open" testId="sandbox-sight-project">
              <p className="mono sandbox-sight__path">{view.workspace}</p>
            </Line>
            {view.gitReadOnly.length > 0 && (
              <Line
                what="Its git folder"
                badge="read-only"
                tone="neutral"
                testId="sandbox-sight-git"
              >
                <Paths paths={view.gitReadOnly} />
                <p className="sandbox-sight__why">
                  So nothing planted there (a hook, a setting) runs later when you use git.
                </p>
              </Line>
            )}
          </>
        ) : (
          <Line what="The project" badge="read-write" tone="open" testId="sandbox-sight-project">
            <p className="sandbox-sight__why">
              The folder a command runs in. Open a project to see it here.
            </p>
          </Line>
        )}
        <Line what="System folders" badge="read-only" tone="neutral" testId="sandbox-sight-system">
          <p className="mono sandbox-sight__path">{view.system.join('  ')}</p>
          <p className="sandbox-sight__why">Programs, libraries and system settings.</p>
          {root && (
            <p className="sandbox-sight__root" data-testid="sandbox-sight-root">
              {root}
            </p>
          )}
        </Line>
        {view.home && (
          <HomeLine
            view={view}
            defaultsInForce={defaultsInForce}
            defaultsOn={defaultsOn}
            onDefaults={onDefaults}
          />
        )}
        {readable.length > 0 && (
          <Line
            what="Added by you"
            badge="read-only"
            tone="neutral"
            testId="sandbox-sight-readable"
          >
            <Paths paths={readable} />
          </Line>
        )}
        {writable.length > 0 && (
          <Line what="Added by you" badge="read-write" tone="open" testId="sandbox-sight-writable">
            <Paths paths={writable} />
          </Line>
        )}
        {sockets ? (
          <ReachLine what="Unix sockets" reach={sockets} testId="sandbox-sight-sockets" />
        ) : (
          <Line what="Unix sockets" badge="listed" tone="open" testId="sandbox-sight-sockets">
            <SocketList sockets={view.sockets} />
          </Line>
        )}
        <ReachLine
          what="Network"
          reach={networkReach(view.network)}
          testId="sandbox-sight-network"
        />
        <Line what="Variables" badge="listed" tone="neutral" testId="sandbox-sight-variables">
          <p className="sandbox-sight__why">
            Only the names under Variables below, never a key Mecatl uses.
          </p>
        </Line>
        <Line what="Mecatl’s own data" badge="never" tone="safe" testId="sandbox-sight-own">
          <p className="sandbox-sight__why">
            Its settings, keys, sessions and memory are not there at all.
          </p>
        </Line>
      </dl>
    </div>
  )
}

/** Each listed socket and where it is now. */
export function SocketList({ sockets }: { sockets: SandboxView['sockets'] }): JSX.Element {
  return (
    <ul className="sandbox-sight__paths" data-testid="sandbox-socket-list">
      {sockets.map((socket) => (
        <li key={socket.entry}>
          <span className="mono">{socket.entry}</span>
          {socket.path === null ? (
            <span className="sandbox-sight__absent"> not there now</span>
          ) : socket.path !== socket.entry ? (
            <span className="sandbox-sight__why">
              {' '}
              now <span className="mono">{socket.path}</span>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
