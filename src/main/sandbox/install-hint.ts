import { findOnPath } from './backend'

/** The package managers that carry bubblewrap under that name, in the order they are tried. */
const MANAGERS: readonly { program: string; install: string }[] = [
  { program: 'apt-get', install: 'apt-get install -y bubblewrap' },
  { program: 'dnf', install: 'dnf install -y bubblewrap' },
  { program: 'pacman', install: 'pacman -S --noconfirm bubblewrap' },
  { program: 'zypper', install: 'zypper install -y bubblewrap' },
  { program: 'apk', install: 'apk add bubblewrap' }
]

/**
 * The one command a person types to install bubblewrap on this machine (with sudo unless they
 * are root), the way `npm test` says it for its own packages: found from the package manager on
 * PATH, or a sentence when there is none Mecatl knows.
 */
export function bubblewrapInstallHint(
  env: NodeJS.ProcessEnv = process.env,
  root: boolean = process.getuid?.() === 0
): string {
  const manager = MANAGERS.find((m) => findOnPath(m.program, env))
  if (!manager) return "install your system's bubblewrap package"
  return `run \`${root ? '' : 'sudo '}${manager.install}\``
}
