// Accuracy of the instruction compiler on the hand-written cases in test/authoring/cases: for
// each (instruction, labels, document, expected verdict), compile, judge, compare. Prints the
// misses with what happened, a line per case file, and last `cases=N correct=N accuracy=R`.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadAuthoringCases } from '../src/authoring/accuracy/authoring-case.js'
import { accuracyOf, runAuthoringCase } from '../src/authoring/accuracy/run-authoring-cases.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const directory = process.env.AUTHORING_CASES_DIR ?? resolve(here, '..', '..', 'test', 'authoring', 'cases')
const report = accuracyOf(loadAuthoringCases(directory).map(runAuthoringCase))
for (const miss of report.wrong) {
  console.log(`MISS ${miss.case.file} "${miss.case.name}": expected ${miss.case.expect}, got ${miss.actual} (${miss.detail})`)
}
for (const file of report.byFile) console.log(`${file.file}: ${file.correct}/${file.total}`)
console.log(`cases=${report.total} correct=${report.correct} accuracy=${(report.correct / Math.max(1, report.total)).toFixed(3)}`)
