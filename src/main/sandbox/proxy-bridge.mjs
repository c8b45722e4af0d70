// The sandbox's one way out under `network: allowlist`. With its own network namespace
// (bubblewrap's --unshare-net) a confined command has a loopback of its own and cannot reach
// the host's 127.0.0.1, where Mecatl's egress proxy listens; the proxy also listens on a unix
// socket bound into the sandbox, and this forwarder, run inside, listens on 127.0.0.1:<port>
// there and pipes each connection to that socket. It reads nothing and decides nothing: the
// proxy on the other end judges every request. Plain Node, no dependencies, so any Node (or
// Electron with ELECTRON_RUN_AS_NODE=1) inside the sandbox can run it.
//
//   node proxy-bridge.mjs <socket> <port>                  serve until killed
//   node proxy-bridge.mjs <socket> <port> -- <command...>  serve, run the command once the port
//                                                          listens, exit with its status
import { spawn } from 'node:child_process'
import net from 'node:net'

const USAGE = 'usage: node proxy-bridge.mjs <socket> <port> [-- command [args...]]'

function fail(message, code = 2) {
  process.stderr.write(`proxy-bridge: ${message}\n`)
  process.exit(code)
}

const [socketPath, portText, separator, ...command] = process.argv.slice(2)
if (!socketPath || !portText) fail(USAGE)
if (!/^[1-9]\d{0,4}$/.test(portText) || Number(portText) > 65535) {
  fail(`"${portText}" is not a port (1 to 65535). ${USAGE}`)
}
if (separator !== undefined && (separator !== '--' || command.length === 0)) fail(USAGE)

// The client speaks HTTP to a proxy first, so an HTTP answer is one it can show.
const NO_PROXY_BODY =
  "Mecatl's sandbox proxy is not running, so nothing can leave the sandbox; restart the command, or Mecatl if this persists.\n"
const NO_PROXY =
  'HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(NO_PROXY_BODY)}\r\nConnection: close\r\n\r\n${NO_PROXY_BODY}`

const server = net.createServer({ allowHalfOpen: true }, (client) => {
  const upstream = net.connect({ path: socketPath, allowHalfOpen: true })
  let connected = false
  upstream.once('connect', () => {
    connected = true
    client.pipe(upstream)
    upstream.pipe(client)
  })
  upstream.on('error', () => {
    if (connected) client.destroy()
    else client.end(NO_PROXY)
  })
  upstream.on('close', () => {
    if (connected) client.destroy()
  })
  client.on('error', () => upstream.destroy())
  client.on('close', () => upstream.destroy())
})

server.on('error', (error) => {
  fail(
    `cannot listen on 127.0.0.1:${portText} (${error.code ?? error.message}); is the port taken?`,
    1
  )
})

/** The shell's exit status for a process ended by these signals is 128 + the number. */
const SIGNAL_NUMBER = { SIGHUP: 1, SIGTERM: 15 }

/** The command, once started; a signal aimed at the bridge goes to it. */
let child = null
// Set before the command starts, never after: a signal sent the moment the command is up (as a
// job's Stop may) must be passed on, not take the bridge down with the command left running.
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => (child ? child.kill(signal) : process.exit(128 + SIGNAL_NUMBER[signal])))
}

server.listen(Number(portText), '127.0.0.1', () => {
  if (command.length === 0) return
  // Under Electron the bridge runs with ELECTRON_RUN_AS_NODE=1; the command must not inherit it.
  const env = { ...process.env }
  if (env.MECATL_BRIDGE_AS_NODE === '1') {
    delete env.ELECTRON_RUN_AS_NODE
    delete env.MECATL_BRIDGE_AS_NODE
  }
  child = spawn(command[0], command.slice(1), { stdio: 'inherit', env })
  child.on('error', (error) => {
    fail(
      `cannot run ${command[0]} (${error.code ?? error.message})`,
      error.code === 'ENOENT' ? 127 : 126
    )
  })
  // A terminal's Ctrl-C and Ctrl-\ reach the whole foreground group, the child included, so the
  // bridge only outlives them; a signal aimed at the bridge alone is passed on.
  for (const signal of ['SIGINT', 'SIGQUIT']) process.on(signal, () => undefined)
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
      return
    }
    process.exit(code ?? 1)
  })
})
