import { app } from 'electron'
console.log(app)
