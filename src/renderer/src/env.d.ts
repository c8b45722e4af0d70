/// <reference types="vite/client" />
import type { PreloadBridge } from '../../shared/contract/bridge'

declare global {
  interface Window {
    /** Present only in the desktop app, where the preload exposes the bridge. */
    mecatl?: PreloadBridge
  }
}
