import './zod-setup'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './shell/app'
import { wireStores } from './shell/wiring'
import './styles/base.css'
import './styles/controls.css'
import './styles/surfaces.css'

wireStores()

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
)
