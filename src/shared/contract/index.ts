export * from './contract'
export * from './frames'
export * from './bridge'
