import { z } from 'zod'

// The CSP forbids eval. Without this, zod probes `new Function` while the contract's schemas are
// built, and the browser reports a CSP violation. Imported first by main.tsx so it runs first.
z.config({ jitless: true })
