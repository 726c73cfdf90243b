#!/usr/bin/env node
// Assembles the own-holdout-5 cases with the generator and self-checks of ../own-holdout:
//   node gen.mjs [--out cases.json] [--models DIR] [--no-schema] [--require-schema]
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

process.argv.push('--set', dirname(fileURLToPath(import.meta.url)));
await import('../own-holdout/gen.mjs');
