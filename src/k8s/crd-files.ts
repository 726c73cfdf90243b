import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { policyCrd, policyExceptionCrd, rulesetCrd } from './crd-manifests.js'

/** Where the CRDs live: plain manifests for kubectl, and the chart's crds/ (installed before the templates). */
export const CRD_DIRECTORIES = ['manifests/crds', 'charts/verdict/crds'] as const

export interface CrdFile {
  /** e.g. `rulesets.verdict.dev.yaml` */
  name: string
  content: string
}

const HEADER = '# Generated from the TypeBox model (src/engine/model) by `npm run generate:crds`; do not edit.\n'

/** The CRD files as the generator writes them; a test compares them with the committed copies. */
export function crdFiles(): CrdFile[] {
  return [rulesetCrd(), policyCrd(), policyExceptionCrd()].map((crd) => ({
    name: `${crd.metadata.name}.yaml`,
    content: HEADER + yaml.dump(crd, { lineWidth: -1, noRefs: true }),
  }))
}

/** Writes every CRD file into every CRD directory under `root`; returns the paths written. */
export async function writeCrdFiles(root: string): Promise<string[]> {
  const written: string[] = []
  for (const directory of CRD_DIRECTORIES) {
    await mkdir(join(root, directory), { recursive: true })
    for (const file of crdFiles()) {
      const path = join(root, directory, file.name)
      await writeFile(path, file.content)
      written.push(path)
    }
  }
  return written
}
