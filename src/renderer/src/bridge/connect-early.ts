import { pageBridge } from './page-bridge'

// Imported by main.tsx right after zod-setup, before the rest of the window: browser mode's socket
// starts its handshake now, while the window's other modules (the contract's schemas, React, the
// features) are evaluated, instead of after them.
pageBridge()
