import { writeCrdFiles } from './crd-files.js'

// `npm run generate:crds`: npm runs scripts from the package root, so paths are relative to it.
for (const path of await writeCrdFiles(process.cwd())) console.log(`wrote ${path}`)
