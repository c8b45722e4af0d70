import './zod-setup'
import './bridge/connect-early'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, bootWindow } from './shell/app'
import { wireStores } from './shell/wiring'
import { wireAnnouncer, wireTheme } from './features/appearance'
import './styles/base.css'
import './styles/controls.css'
import './styles/surfaces.css'
import './styles/theme-dark.css'
import './styles/code-highlight.css'

// Before the first render, so the first frame is already in the chosen theme.
wireTheme()
wireStores()
wireAnnouncer()
// Asked before the first render: the answers are on their way while React renders the boot screen.
void bootWindow()

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
)
