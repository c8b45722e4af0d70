export interface RecentFolder {
  path: string
  openedAt: number
}

export interface WelcomeState {
  path: string
  recent: RecentFolder[]
  recentStatus: 'idle' | 'loading' | 'ready' | 'error'
  opening: boolean
  error: string | null
  /** Set when another window already shows the folder (the main process focused it). */
  openElsewhere: string | null
}

export type WelcomeAction =
  | { type: 'path-changed'; path: string }
  | { type: 'recent-loading' }
  | { type: 'recent-loaded'; folders: RecentFolder[] }
  | { type: 'recent-failed' }
  | { type: 'open-started'; path: string }
  | { type: 'open-failed'; error: string }
  | { type: 'opened-elsewhere'; path: string }
  | { type: 'open-finished' }

export const initialWelcomeState: WelcomeState = {
  path: '',
  recent: [],
  recentStatus: 'idle',
  opening: false,
  error: null,
  openElsewhere: null
}

export function welcomeReducer(state: WelcomeState, action: WelcomeAction): WelcomeState {
  switch (action.type) {
    case 'path-changed':
      // Typing clears the last error: it was about the old text.
      return { ...state, path: action.path, error: null, openElsewhere: null }
    case 'recent-loading':
      return { ...state, recentStatus: 'loading' }
    case 'recent-loaded':
      return {
        ...state,
        recentStatus: 'ready',
        recent: [...action.folders].sort((a, b) => b.openedAt - a.openedAt)
      }
    case 'recent-failed':
      return { ...state, recentStatus: 'error' }
    case 'open-started':
      return { ...state, path: action.path, opening: true, error: null, openElsewhere: null }
    case 'open-failed':
      return { ...state, opening: false, error: action.error }
    case 'opened-elsewhere':
      return { ...state, opening: false, openElsewhere: action.path }
    case 'open-finished':
      return { ...state, opening: false }
  }
}
