export * from './names'
export * from './contract'
export * from './frames'
export * from './bridge'
