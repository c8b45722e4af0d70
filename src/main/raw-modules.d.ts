// Vite (the build and vitest) imports a file's text with `?raw`: how the proxy bridge, a script
// run inside the sandbox, travels in the bundle.
declare module '*?raw' {
  const text: string
  export default text
}
