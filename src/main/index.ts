import { enableCompileCache } from './compile-cache'

// The Electron entry. The compile cache goes on first, then the app is loaded (electron/desktop.ts):
// everything it brings is compiled from the cache after the first start, which a static import
// here would load before the cache was on.
enableCompileCache()
void import('./electron/desktop')
