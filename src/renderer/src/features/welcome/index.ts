// The start screen, shown before a project folder is open.
export { WelcomeScreen } from './welcome-screen'
