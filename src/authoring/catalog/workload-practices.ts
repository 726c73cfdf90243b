import type { Rule, Severity } from '../../engine/index.js'
import { mentions, type Clause } from '../text/clause.js'
import { hostNames, listAfter, listBefore, portRanges, quantities, quoted } from '../text/extract.js'
import { containersOf, firstContainerOf, mapIn, podSpecsOf } from '../samples/document-parts.js'
import { ALL_CONTAINERS, APP_AND_INIT_CONTAINERS, celString, celStringList, podRule } from './pod-rule.js'
import type { ParameterValue, Parameters, Recognition, RuleTemplate, SampleEdit } from './rule-template.js'
import { ruleNameFrom } from './rule-name.js'

/**
 * Workload best practices: where images come from and how they are referenced, resources,
 * probes, pull policy, service account tokens, read-only root filesystems, credentials in
 * environment variables, priority classes and container ports.
 *
 * Containers: every container type Kubernetes allows the field on is judged (app, init and
 * ephemeral containers for images, pull policy, securityContext and env; app and init ones for
 * resources and ports; app containers only for probes). "Must be X" rules fail when the field is
 * missing, "must not be X" rules pass. Scores: 3 when the clause names the template's field or
 * concept, as the Pod Security templates do, so a tie between the two families is a real
 * ambiguity rather than an accident of scale.
 */

type Json = Record<string, unknown>

const NOT_RECOGNIZED: Recognition = { score: 0, parameters: {}, missing: [] }

function recognized(score: number, parameters: Parameters = {}, missing: string[] = []): Recognition {
  return { score, parameters, missing }
}

const APP_CONTAINERS = { name: 'containers', expression: 'object.spec.?containers.orValue([])' }

/** A DNS-label-like piece of a rule name. */
function slug(...parts: readonly string[]): string {
  return ruleNameFrom(parts)
}

function stringsOf(value: ParameterValue | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : []
}

interface ContainerRuleOptions {
  name: string
  description: string
  severity: Severity
  containers: typeof ALL_CONTAINERS
  /** CEL over one container `c` (and the pod `object`): true when the container complies. */
  predicate: string
  message: string
  remediation: string
  /** What the failure message lists for each offending container. */
  show?: 'name' | 'image'
}

/**
 * A rule that every container must satisfy. The failure message names the offending containers
 * (and their images for image rules): with init and ephemeral containers judged too, "which one"
 * is the first thing an author asks.
 */
function containerRule(options: ContainerRuleOptions): Rule {
  const rule = podRule({
    name: options.name,
    description: options.description,
    severity: options.severity,
    containers: options.containers,
    expression: `variables.containers.all(c, ${options.predicate})`,
    message: options.message,
    remediation: options.remediation,
  })
  const shown = options.show === 'image' ? "c.?name.orValue('?') + ' (' + c.?image.orValue('no image') + ')'" : "c.?name.orValue('?')"
  const validation = rule.validate.cel?.[0]
  if (validation) {
    validation.messageExpression = `${celString(`${options.message}: `)} + variables.containers.filter(c, !(${options.predicate})).map(c, ${shown}).join(', ')`
  }
  return rule
}

// ---------------------------------------------------------------------------------------------
// Image references, in CEL and for sample edits. Parsed as the container runtimes do: an
// optional @digest, then an optional :tag after the last slash, then a registry only when the
// first path component has a dot or a port or is localhost; without one the image is on Docker
// Hub, and a one-component Docker Hub name is under library/.

/** CEL: the tag of image `i`, '' when it has none. */
function celTagOf(image: string): string {
  return `cel.bind(n, ${image}.split('@')[0], n.lastIndexOf(':') > n.lastIndexOf('/') ? n.substring(n.lastIndexOf(':') + 1) : '')`
}

/** CEL: whether image `i` runs whatever :latest is now (the tag latest, or no tag and no digest). */
function celRunsLatest(image: string): string {
  return `cel.bind(t, ${celTagOf(image)}, t == 'latest' || (t == '' && !${image}.contains('@')))`
}

/** CEL: the repository of image `i` as registry/path without tag and digest: nginx -> docker.io/library/nginx. */
function celRepositoryOf(image: string): string {
  const name = `cel.bind(n, ${image}.split('@')[0], n.lastIndexOf(':') > n.lastIndexOf('/') ? n.substring(0, n.lastIndexOf(':')) : n)`
  const qualified =
    `cel.bind(name, ${name}, cel.bind(first, name.split('/')[0], ` +
    `name.contains('/') && (first.contains('.') || first.contains(':') || first == 'localhost') ? first.lowerAscii() + name.substring(first.size()) : 'docker.io/' + name))`
  const dockerHub = `cel.bind(q, ${qualified}, q.startsWith('index.docker.io/') ? 'docker.io/' + q.substring(16) : q)`
  return `cel.bind(r, ${dockerHub}, r.startsWith('docker.io/') && !r.substring(10).contains('/') ? 'docker.io/library/' + r.substring(10) : r)`
}

/**
 * CEL: whether repository `r` is under one of the registry entries: a host (with its port, if
 * any) and optional path prefix, matched whole component by whole component, or *.domain for
 * any host under that domain.
 */
function celRepositoryIn(repository: string, entries: readonly string[]): string {
  const exact = entries.filter((entry) => !entry.startsWith('*.'))
  const wildcards = entries.filter((entry) => entry.startsWith('*.')).map((entry) => entry.slice(1))
  const tests = [
    ...(exact.length > 0 ? [`${celStringList(exact)}.exists(e, ${repository} == e || ${repository}.startsWith(e + '/'))`] : []),
    ...(wildcards.length > 0 ? [`${celStringList(wildcards)}.exists(d, ${repository}.split('/')[0].endsWith(d))`] : []),
  ]
  return tests.length > 0 ? `(${tests.join(' || ')})` : 'false'
}

interface ImageReference {
  /** As written; undefined when the image names no registry. */
  host: string | undefined
  path: string
  tag: string | undefined
  digest: string | undefined
}

function parseImage(image: string): ImageReference {
  const at = image.indexOf('@')
  const digest = at >= 0 ? image.slice(at + 1) : undefined
  let name = at >= 0 ? image.slice(0, at) : image
  let tag: string | undefined
  const colon = name.lastIndexOf(':')
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1)
    name = name.slice(0, colon)
  }
  const slash = name.indexOf('/')
  const first = slash >= 0 ? name.slice(0, slash) : ''
  const host = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : undefined
  return { host, path: host ? name.slice(slash + 1) : name, tag, digest }
}

function formatImage(reference: ImageReference): string {
  return `${reference.host ? `${reference.host}/` : ''}${reference.path}${reference.tag !== undefined ? `:${reference.tag}` : ''}${reference.digest !== undefined ? `@${reference.digest}` : ''}`
}

/** The same normalization as celRepositoryOf. */
function repositoryOf(image: string): string {
  const { host, path } = parseImage(image)
  let repository = host ? `${host.toLowerCase()}/${path}` : `docker.io/${path}`
  if (repository.startsWith('index.docker.io/')) repository = `docker.io/${repository.slice(16)}`
  if (repository.startsWith('docker.io/') && !repository.slice(10).includes('/')) repository = `docker.io/library/${repository.slice(10)}`
  return repository
}

function repositoryIn(repository: string, entries: readonly string[]): boolean {
  return entries.some((entry) =>
    entry.startsWith('*.') ? (repository.split('/')[0] ?? '').endsWith(entry.slice(1)) : repository === entry || repository.startsWith(`${entry}/`),
  )
}

/** A concrete host for an entry, for samples: *.acme.io -> registry.acme.io. */
function sampleEntry(entry: string): string {
  return entry.replace(/^\*\./, 'registry.')
}

/** The image moved under a registry entry (host or host/path), tag and digest kept. */
function imageUnder(image: string, entry: string): string {
  const reference = parseImage(image)
  const [host = entry, ...prefix] = entry.split('/')
  return formatImage({ ...reference, host, path: [...prefix, reference.path].join('/') })
}

const SAMPLE_DIGEST = `sha256:${'4f3c2b1a'.repeat(8)}`

function editImages(document: Json, change: (image: string) => string): void {
  for (const container of containersOf(document)) {
    if (typeof container.image === 'string') container.image = change(container.image)
  }
}

function firstInitContainerOf(document: Json): Json {
  const [init] = containersOf(document, ['initContainers'])
  if (init) return init
  const [spec] = podSpecsOf(document)
  const created: Json = { name: 'init', image: 'registry.example.com/payments/init:1.0.0' }
  if (spec) spec.initContainers = [created]
  return created
}

function setImage(container: Json, change: (reference: ImageReference) => ImageReference): void {
  container.image = formatImage(change(parseImage(typeof container.image === 'string' ? container.image : 'registry.example.com/payments/web:1.0.0')))
}

// ---------------------------------------------------------------------------------------------
// Words shared by the image recognizers

const IMAGE_WORDS = /\b(images?|container images?)\b/
const LATEST = /(^|[^a-z0-9])latest\b/
const DIGEST_WORDS = /\b(digests?|sha256|sha512)\b|@sha/
/** "a version tag or a sha256 digest": either one will do, so what is asked is only that the image is not bare. */
const TAG_OR_DIGEST = /\btag(?:s|ged)?\b[^.;]{0,30}\bor\b[^.;]{0,20}(\bdigests?\b|\bsha(256|512)\b|@sha)|(\bdigests?\b|\bsha(256|512)\b|@sha)[^.;]{0,20}\bor\b[^.;]{0,30}\btag(?:s|ged)?\b/
const PULL_POLICY_WORDS = /imagepullpolic(y|ies)|\bpull[\s-]*polic(y|ies)\b/
const ALWAYS_PULL = /\balways[\s-]+(be[\s-]+)?pull(s|ed|ing)?\b|\bpull(s|ed)?[\s-]+(images?[\s-]+)?always\b/

// ---------------------------------------------------------------------------------------------
// Image tags and digests

const notLatest: RuleTemplate = {
  id: 'image-tag-not-latest',
  title: 'No :latest image tags',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['never use the :latest tag', 'images must not use the latest tag', 'no latest images', 'disallow :latest image tags'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, LATEST)) return NOT_RECOGNIZED
    // "imagePullPolicy Always for :latest" is the pull policy; "pin by digest, not :latest" the digest rule.
    if (mentions(clause, PULL_POLICY_WORDS, ALWAYS_PULL, DIGEST_WORDS)) return NOT_RECOGNIZED
    if (!mentions(clause, /:latest\b/, /\btags?\b/, IMAGE_WORDS, /\bcontainers?\b/) && !clause.negated) return NOT_RECOGNIZED
    return recognized(3)
  },
  rule: () =>
    containerRule({
      name: 'image-tag-not-latest',
      description:
        'An image tagged :latest, or not tagged at all (which pulls :latest), changes under the workload without a deploy: rollbacks and audits cannot tell what ran. An image pinned by digest alone is fine.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      predicate: `cel.bind(i, c.?image.orValue(''), i == '' || !${celRunsLatest('i')})`,
      message: 'images must not use the :latest tag or omit the tag',
      remediation:
        'Set image on every container, init container and ephemeral container to an explicit version tag (registry.example.com/app:1.4.2) or a digest (@sha256:...), never :latest and never without a tag.',
      show: 'image',
    }),
  samples: () => ({
    good: [],
    bad: [
      {
        description: 'an app container image tagged :latest',
        edit: (document) => setImage(firstContainerOf(document), (reference) => ({ ...reference, tag: 'latest' })),
      },
      {
        description: 'an init container image without a tag (implicitly :latest)',
        edit: (document) => setImage(firstInitContainerOf(document), (reference) => ({ ...reference, tag: undefined, digest: undefined })),
      },
    ],
  }),
}

const tagRequired: RuleTemplate = {
  id: 'image-tag-required',
  title: 'Images must have a tag',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['images must have an explicit tag', 'no untagged images', 'every container image needs a version tag'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, /\b(tags?|tagged|untagged)\b/)) return NOT_RECOGNIZED
    if (!mentions(clause, IMAGE_WORDS, /\buntagged\b/)) return NOT_RECOGNIZED
    if (mentions(clause, LATEST, PULL_POLICY_WORDS)) return NOT_RECOGNIZED
    if (mentions(clause, DIGEST_WORDS) && !mentions(clause, TAG_OR_DIGEST)) return NOT_RECOGNIZED
    return recognized(mentions(clause, TAG_OR_DIGEST) ? 4 : 3)
  },
  rule: () =>
    containerRule({
      name: 'image-tag-required',
      description: 'An image without a tag pulls :latest, whatever that is on the day. A digest pins the image even more strictly, so an image with a digest and no tag complies.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      predicate: `cel.bind(i, c.?image.orValue(''), i != '' && (${celTagOf('i')} != '' || i.contains('@')))`,
      message: 'images must have an explicit tag or digest',
      remediation: 'Add a version tag (:1.4.2) or a digest (@sha256:...) to image on every container, init container and ephemeral container.',
      show: 'image',
    }),
  samples: () => ({
    good: [],
    bad: [
      {
        description: 'an app container image without a tag',
        edit: (document) => setImage(firstContainerOf(document), (reference) => ({ ...reference, tag: undefined, digest: undefined })),
      },
      {
        description: 'an init container image without a tag',
        edit: (document) => setImage(firstInitContainerOf(document), (reference) => ({ ...reference, tag: undefined, digest: undefined })),
      },
    ],
  }),
}

const DIGEST_PATTERN = '@(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$'

const digestRequired: RuleTemplate = {
  id: 'image-digest-required',
  title: 'Images pinned by digest',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['images must be pinned by digest', 'require sha256 image digests', 'container images must reference a digest'],
  parameters: [],
  recognize(clause) {
    const digest = mentions(clause, DIGEST_WORDS)
    const pinned = mentions(clause, /\bpin(s|ned|ning)?\b/) && mentions(clause, IMAGE_WORDS)
    if (!digest && !pinned) return NOT_RECOGNIZED
    if (mentions(clause, PULL_POLICY_WORDS, TAG_OR_DIGEST)) return NOT_RECOGNIZED
    return recognized(3)
  },
  rule: () =>
    containerRule({
      name: 'image-digest-required',
      description: 'A tag can be moved to another image; a digest cannot. Pinning by digest makes what runs exactly what was reviewed and scanned.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      predicate: `c.?image.orValue('').matches(${celString(DIGEST_PATTERN)})`,
      message: 'images must be pinned by digest (@sha256:...)',
      remediation:
        'Reference the image by digest on every container, init container and ephemeral container: image: registry.example.com/app:1.4.2@sha256:<64 hex digits> (the tag may stay for readability; the digest decides what is pulled).',
      show: 'image',
    }),
  samples: () => ({
    good: [(document) => editImages(document, (image) => (parseImage(image).digest === undefined ? `${image}@${SAMPLE_DIGEST}` : image))],
    bad: [
      {
        description: 'an app container image with a tag but no digest',
        edit: (document) => setImage(firstContainerOf(document), (reference) => ({ ...reference, tag: reference.tag ?? '1.4.2', digest: undefined })),
      },
      {
        description: 'an init container image with a truncated digest',
        edit: (document) => setImage(firstInitContainerOf(document), (reference) => ({ ...reference, digest: 'sha256:4f3c2b1a' })),
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Registries

const DOCKER_HUB_WORDS = /\bdocker[\s-]*hub\b|\bdockerhub\b/
/** The registry entries the clause names: hosts with optional port and path, Docker Hub by name. */
function registryEntries(clause: Clause): string[] {
  const text = clause.text.replace(/\bhttps?:\/\//gi, '')
  const wildcard = /\*\.((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9])(?![\w.-])/gi
  const wildcards = [...text.matchAll(wildcard)].map((match) => `*.${(match[1] ?? '').toLowerCase()}`)
  const hosts = hostNames(text.replace(wildcard, ' ')).map((entry) => {
    const [host = '', ...path] = entry.replace(/\/+$/, '').split('/')
    const canonicalHost = host === 'index.docker.io' || host === 'hub.docker.com' || host === 'registry-1.docker.io' ? 'docker.io' : host
    // Repository paths are lower-case by the image reference grammar; hosts compare case-insensitively.
    return [canonicalHost, ...path].join('/').toLowerCase()
  })
  const entries = [...wildcards, ...hosts]
  if (mentions(clause, DOCKER_HUB_WORDS)) entries.push('docker.io')
  return [...new Set(entries)]
}

/** Words that make a negated clause name the registries allowed ("no images except from X"). */
const ONLY_WORDS = /\b(only|exclusively|solely|except|excluding|other than|besides|apart from|anywhere but|anything but|allow ?list(ed)?|white ?list(ed)?|trusted|approved)\b/
const DENY_WORDS = /\b(deny ?list(ed)?|block ?list(ed)?|black ?list(ed)?|banned)\b/

interface RegistryClause {
  entries: string[]
  deny: boolean
  score: number
}

function registryClause(clause: Clause): RegistryClause | undefined {
  if (mentions(clause, PULL_POLICY_WORDS)) return undefined
  const entries = registryEntries(clause)
  const registryWord = mentions(clause, /\bregistr(y|ies)\b/)
  const imageContext = registryWord || mentions(clause, IMAGE_WORDS, /\bpull(s|ed|ing)?\b/)
  if (!imageContext || (entries.length === 0 && !registryWord)) return undefined
  const deny = mentions(clause, DENY_WORDS) || (clause.negated && !mentions(clause, ONLY_WORDS))
  return { entries, deny, score: entries.length > 0 ? 3 : 2 }
}

/** The image moved to a registry none of `avoid` names, for taking compliant images out of a denied one. */
function outsideRegistries(image: string, avoid: readonly string[]): string {
  const candidates = ['registry.example.com', 'registry.example.org', 'images.example.net']
  const host = candidates.find((candidate) => !repositoryIn(repositoryOf(imageUnder(image, candidate)), avoid)) ?? 'images.example.net'
  return imageUnder(image, host)
}

const registryAllowed: RuleTemplate = {
  id: 'image-registry-allowed',
  title: 'Images only from allowed registries',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: [
    'images only from registry.acme.io',
    'only pull from ghcr.io/acme or registry.acme.io',
    'container images must come from registry.acme.io',
    'approved registries only: registry.acme.io, ghcr.io/acme',
  ],
  parameters: [
    {
      name: 'registries',
      question: 'which registries may images come from (host, host:port or host/path prefix)?',
      required: true,
      example: ['registry.acme.io', 'ghcr.io/acme'],
    },
  ],
  recognize(clause) {
    const found = registryClause(clause)
    if (!found || found.deny) return NOT_RECOGNIZED
    return found.entries.length > 0 ? recognized(found.score, { registries: found.entries }) : recognized(found.score, {}, ['registries'])
  },
  rule(parameters) {
    const registries = stringsOf(parameters.registries)
    return containerRule({
      name: slug('images-only-from', ...registries),
      description:
        'Images from elsewhere have not been scanned or signed by us. Registries match exactly: the host (and port, and path prefix when given) must be the one allowed, so look-alike hosts (registry.acme.io.evil.com) do not pass; images without a registry are from docker.io.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      predicate: `cel.bind(i, c.?image.orValue(''), i != '' && cel.bind(repo, ${celRepositoryOf('i')}, ${celRepositoryIn('repo', registries)}))`,
      message: `images must come from ${registries.join(' or ')}`,
      remediation: `Set image on every container, init container and ephemeral container to an image under ${registries.join(' or ')} (mirror the image there first if needed); an image with no registry part, like nginx, comes from docker.io.`,
      show: 'image',
    })
  },
  samples(parameters) {
    const registries = stringsOf(parameters.registries)
    const first = sampleEntry(registries[0] ?? 'registry.acme.io')
    const [firstHost = first, ...firstPath] = first.split('/')
    const notAllowed = (candidates: string[]): string | undefined => candidates.find((image) => !repositoryIn(repositoryOf(image), registries))
    const lookAlikes = [
      firstPath.length > 0 ? `${firstHost}/${firstPath.join('/')}-evil/payments/web:1.4.2` : `${firstHost}.evil.example/payments/web:1.4.2`,
      `evil${(registries[0] ?? '').startsWith('*.') ? firstHost.replace(/^registry\./, '') : firstHost}/payments/web:1.4.2`,
      firstHost.includes(':') ? `${firstHost.split(':')[0] ?? firstHost}:5001/payments/web:1.4.2` : `${firstHost}:5000/payments/web:1.4.2`,
    ]
    const bad: { description: string; edit: SampleEdit }[] = []
    const lookAlike = notAllowed(lookAlikes)
    if (lookAlike) {
      bad.push({ description: `an app container image from a look-alike registry (${lookAlike})`, edit: (document) => void (firstContainerOf(document).image = lookAlike) })
    }
    const elsewhere = notAllowed(['payments/migrate:1.4.2', 'quay.io/payments/migrate:1.4.2', 'registry.example.net/payments/migrate:1.4.2'])
    if (elsewhere) {
      bad.push({ description: `an init container image from another registry (${elsewhere})`, edit: (document) => void (firstInitContainerOf(document).image = elsewhere) })
    }
    return {
      good: [(document) => editImages(document, (image) => (repositoryIn(repositoryOf(image), registries) ? image : imageUnder(image, first)))],
      bad,
    }
  },
}

const registryDenied: RuleTemplate = {
  id: 'image-registry-denied',
  title: 'No images from denied registries',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['no images from docker.io', 'block images pulled from docker.io or quay.io', 'containers must not use images from Docker Hub'],
  parameters: [{ name: 'registries', question: 'which registries are images not allowed to come from?', required: true, example: ['docker.io'] }],
  recognize(clause) {
    const found = registryClause(clause)
    if (!found?.deny) return NOT_RECOGNIZED
    return found.entries.length > 0 ? recognized(found.score, { registries: found.entries }) : recognized(found.score, {}, ['registries'])
  },
  rule(parameters) {
    const registries = stringsOf(parameters.registries)
    return containerRule({
      name: slug('no-images-from', ...registries),
      description: `Images from ${registries.join(', ')} are not allowed. Registries match exactly on the host (and path prefix when given); images without a registry are from docker.io.`,
      severity: 'high',
      containers: ALL_CONTAINERS,
      predicate: `cel.bind(i, c.?image.orValue(''), i == '' || cel.bind(repo, ${celRepositoryOf('i')}, !${celRepositoryIn('repo', registries)}))`,
      message: `images must not come from ${registries.join(' or ')}`,
      remediation: `Set image on every container, init container and ephemeral container to an image outside ${registries.join(', ')} (mirror it to an approved registry); an image with no registry part, like nginx, counts as docker.io.`,
      show: 'image',
    })
  },
  samples(parameters) {
    const registries = stringsOf(parameters.registries)
    const first = sampleEntry(registries[0] ?? 'docker.io')
    const bad: { description: string; edit: SampleEdit }[] = []
    if (first === 'docker.io') {
      bad.push({
        description: 'an app container image with no registry part (docker.io)',
        edit: (document) => setImage(firstContainerOf(document), (reference) => ({ ...reference, host: undefined })),
      })
    }
    bad.push({
      description: `an init container image from ${first}`,
      edit: (document) => {
        const init = firstInitContainerOf(document)
        init.image = imageUnder(typeof init.image === 'string' ? init.image : 'registry.example.com/payments/migrate:1.4.2', first)
      },
    })
    return {
      good: [(document) => editImages(document, (image) => (repositoryIn(repositoryOf(image), registries) ? outsideRegistries(image, registries) : image))],
      bad,
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Resources

type ResourceName = 'cpu' | 'memory' | 'ephemeral-storage'
type ResourceField = 'requests' | 'limits'
type Comparison = 'max' | 'min' | 'lessThan' | 'greaterThan'

const RESOURCE_WORDS: ReadonlyArray<[RegExp, ResourceName]> = [
  [/\b(cpus?|vcpus?|cores?|millicores?|processors?)\b/g, 'cpu'],
  [/\b(memory|mem|ram)\b/g, 'memory'],
  [/\bephemeral[\s-]*storage\b/g, 'ephemeral-storage'],
]
const FIELD_WORDS: ReadonlyArray<[RegExp, ResourceField]> = [
  [/\brequests?\b/g, 'requests'],
  [/\blimits?\b/g, 'limits'],
]

/** Longer phrases first: "no more than" must win over "more than" at the same place. */
const COMPARATORS: ReadonlyArray<[string, Comparison | 'between']> = [
  ['no more than', 'max'], ['not more than', 'max'], ['no greater than', 'max'], ['not greater than', 'max'], ['no higher than', 'max'],
  ['not higher than', 'max'], ['no larger than', 'max'], ['no bigger than', 'max'], ['must not exceed', 'max'], ['should not exceed', 'max'],
  ['may not exceed', 'max'], ['not to exceed', 'max'], ['not exceed', 'max'], ['never exceed', 'max'], ['at most', 'max'], ['up to', 'max'],
  ['maximum of', 'max'], ['maximum', 'max'], ['max', 'max'], ['capped at', 'max'], ['or less', 'max'], ['or lower', 'max'], ['or below', 'max'],
  ['or smaller', 'max'], ['<=', 'max'], ['≤', 'max'],
  ['no less than', 'min'], ['not less than', 'min'], ['no lower than', 'min'], ['not lower than', 'min'], ['no smaller than', 'min'],
  ['not below', 'min'], ['at least', 'min'], ['minimum of', 'min'], ['minimum', 'min'], ['min', 'min'], ['or more', 'min'], ['or higher', 'min'],
  ['or above', 'min'], ['or greater', 'min'], ['>=', 'min'], ['≥', 'min'],
  ['less than', 'lessThan'], ['lower than', 'lessThan'], ['smaller than', 'lessThan'], ['below', 'lessThan'], ['under', 'lessThan'], ['<', 'lessThan'],
  ['more than', 'greaterThan'], ['greater than', 'greaterThan'], ['higher than', 'greaterThan'], ['larger than', 'greaterThan'], ['above', 'greaterThan'],
  ['exceeding', 'greaterThan'], ['>', 'greaterThan'],
  ['between', 'between'],
]

const COMPARATOR_PATTERN = new RegExp(
  `(?<![a-z])(${COMPARATORS.map(([phrase]) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')).join('|')})(?![a-z])`,
  'g',
)

/** Where one item of a list ends: "512Mi memory and 1 cpu", but not "2Gi or less". */
const SEGMENT_BREAK = /,|;|\band\b|\bbut\b|\bor\b(?!\s+(less|lower|below|smaller|more|higher|above|greater)\b)/g

interface Found<T> {
  index: number
  end: number
  value: T
}

function findAll<T>(text: string, table: ReadonlyArray<[RegExp, T]>): Found<T>[] {
  const found: Found<T>[] = []
  for (const [pattern, value] of table) {
    for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) found.push({ index: match.index, end: match.index + match[0].length, value })
  }
  return found.sort((a, b) => a.index - b.index)
}

function comparatorsIn(text: string): Found<Comparison | 'between'>[] {
  const byPhrase = new Map(COMPARATORS)
  return [...text.matchAll(COMPARATOR_PATTERN)].map((match) => ({
    index: match.index,
    end: match.index + match[0].length,
    value: byPhrase.get(match[0].replace(/\s+/g, ' ')) ?? 'max',
  }))
}

/** "must not have more than 2 cpus" is "at most 2". */
const INVERTED: Record<Comparison | 'between', Comparison | 'between'> = { max: 'greaterThan', min: 'lessThan', lessThan: 'min', greaterThan: 'max', between: 'between' }

function negatedBefore(text: string): boolean {
  return /\b(no|not|never|cannot|can't|mustn't|shouldn't)\b/.test(text)
}

/** Bounds per field.resource ("limits.memory"): { max: '2Gi' }. */
type ResourceBounds = Record<string, Partial<Record<Comparison, string>>>

const QUANTITY_AT = /^\d+(?:\.\d+)?\s*(?:millicores?|millicpus?|m(?![a-z])|cores?|vcpus?|cpus?|kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb|k|g|t)?(?![\w])/i

interface BoundReading {
  bounds: ResourceBounds
  /** False when a quantity's resource or comparison could not be told, or memory had no unit. */
  complete: boolean
  quantities: number
}

/**
 * Reads "limits of at most 512Mi memory and 1 cpu" as limits.memory <= 512Mi and limits.cpu <= 1.
 * Each quantity takes its resource from its unit or the nearest resource word, its field and
 * comparison from the words before it (or just after: "2Gi or less"), and otherwise from the
 * quantity before it, so a list shares what was said once.
 */
function readBounds(text: string): BoundReading {
  const lower = text.toLowerCase()
  const mentioned = quantities(text)
    .map((found) => ({ ...found, end: found.index + (QUANTITY_AT.exec(text.slice(found.index))?.[0].length ?? 1) }))
    .filter((found) => !text.slice(found.end).trimStart().startsWith('%'))
  const resources = findAll(lower, RESOURCE_WORDS)
  const fields = findAll(lower, FIELD_WORDS)
  const comparators = comparatorsIn(lower)
  const breaks = [...lower.matchAll(SEGMENT_BREAK)].map((match) => match.index)
  const distinctResources = [...new Set(resources.map((found) => found.value))]
  const within = <T>(list: Found<T>[], from: number, to: number): Found<T>[] => list.filter((found) => found.index >= from && found.end <= to)
  const bounds: ResourceBounds = {}
  let complete = mentioned.length > 0
  let previous: { resource: ResourceName | undefined; fields: ResourceField[]; comparison: Comparison | 'between' | undefined } | undefined
  mentioned.forEach((quantity, position) => {
    const previousEnd = mentioned[position - 1]?.end
    // The first quantity reads everything before it; a later one only its own list item.
    const beforeStart = previousEnd === undefined ? 0 : Math.max(previousEnd, ...breaks.filter((index) => index < quantity.index))
    const afterEnd = Math.min(mentioned[position + 1]?.index ?? text.length, ...breaks.filter((index) => index >= quantity.end))
    const before = { resources: within(resources, beforeStart, quantity.index), fields: within(fields, beforeStart, quantity.index), comparators: within(comparators, beforeStart, quantity.index) }
    const after = { resources: within(resources, quantity.end, afterEnd), fields: within(fields, quantity.end, afterEnd), comparators: within(comparators, quantity.end, afterEnd) }

    const named = before.resources.at(-1)?.value ?? after.resources[0]?.value
    // Byte units say memory, unless the words say ephemeral storage.
    const resource: ResourceName | undefined =
      (quantity.unit === 'memory' && named === 'ephemeral-storage' ? named : quantity.unit) ??
      named ??
      previous?.resource ??
      (distinctResources.length === 1 ? distinctResources[0] : undefined)
    let fieldList: ResourceField[] = [...new Set(before.fields.map((found) => found.value))]
    if (fieldList.length === 0 && after.fields[0]) fieldList = [after.fields[0].value]
    if (fieldList.length === 0) fieldList = previous?.fields ?? [...new Set(fields.map((found) => found.value))]
    if (fieldList.length === 0) fieldList = ['limits']
    // "between 100m and 2": the first is the minimum, the one after "and" the maximum.
    const stated = before.comparators.at(-1)
    const comparison =
      (stated && negatedBefore(lower.slice(beforeStart, stated.index)) ? INVERTED[stated.value] : stated?.value) ??
      after.comparators[0]?.value ??
      (previous?.comparison === 'between' ? 'max' : previous?.comparison)
    const effective: Comparison | undefined = comparison === 'between' ? 'min' : comparison
    // A bare number is cores for cpu but bytes for memory, which nobody means: ask for the unit.
    const unitless = resource !== undefined && resource !== 'cpu' && quantity.unit === undefined && quantity.quantity !== '0'
    if (!resource || !effective || unitless) {
      complete = false
    } else {
      for (const field of fieldList) {
        const bound = (bounds[`${field}.${resource}`] ??= {})
        bound[effective] ??= quantity.quantity
      }
    }
    previous = { resource, fields: fieldList, comparison }
  })
  return { bounds, complete, quantities: mentioned.length }
}

/** Multipliers of Kubernetes quantity suffixes, to pick sample values that pass or fail a bound. */
const SUFFIXES: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
}

function quantityValue(value: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(String(value))
  const multiplier = match ? SUFFIXES[match[2] ?? ''] : undefined
  return match && multiplier !== undefined ? Number(match[1]) * multiplier : undefined
}

function scaledQuantity(quantity: string, factor: number): string {
  const match = /^(\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(quantity)
  if (!match) return quantity
  return `${Number((Number(match[1]) * factor).toPrecision(12))}${match[2] ?? ''}`
}

function satisfies(value: unknown, bound: Partial<Record<Comparison, string>>): boolean {
  const actual = quantityValue(value)
  if (actual === undefined) return false
  const check = (limit: string | undefined, test: (a: number, b: number) => boolean): boolean => {
    const expected = limit === undefined ? undefined : quantityValue(limit)
    return expected === undefined || test(actual, expected)
  }
  return check(bound.max, (a, b) => a <= b) && check(bound.min, (a, b) => a >= b) && check(bound.lessThan, (a, b) => a < b) && check(bound.greaterThan, (a, b) => a > b)
}

/** A value inside the bound, for good samples. */
function compliantQuantity(bound: Partial<Record<Comparison, string>>): string {
  const candidates = [bound.min, bound.max, bound.greaterThan && scaledQuantity(bound.greaterThan, 2), bound.lessThan && scaledQuantity(bound.lessThan, 0.5)]
  const defined = candidates.filter((candidate): candidate is string => typeof candidate === 'string')
  return defined.find((candidate) => satisfies(candidate, bound)) ?? defined[0] ?? '1'
}

/** A value outside the bound, for bad samples; undefined when only a missing field can break it. */
function offendingQuantity(bound: Partial<Record<Comparison, string>>): string | undefined {
  const candidates = [
    bound.max && (quantityValue(bound.max) === 0 ? '1' : scaledQuantity(bound.max, 2)),
    bound.lessThan,
    bound.min && quantityValue(bound.min) !== 0 ? '0' : undefined,
    bound.greaterThan,
  ]
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && !satisfies(candidate, bound))
}

const COMPARISON_WORDS: Record<Comparison, string> = { max: 'at most', min: 'at least', lessThan: 'less than', greaterThan: 'more than' }
const COMPARISON_CEL: Record<Comparison, string> = { max: '<= 0', min: '>= 0', lessThan: '< 0', greaterThan: '> 0' }

function boundsOf(value: ParameterValue | undefined): ResourceBounds {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  const bounds: ResourceBounds = {}
  for (const [key, bound] of Object.entries(value)) {
    if (typeof bound !== 'object' || bound === null || Array.isArray(bound)) continue
    const entry: Partial<Record<Comparison, string>> = {}
    for (const comparison of ['max', 'min', 'lessThan', 'greaterThan'] as const) {
      const limit = (bound as Record<string, ParameterValue>)[comparison]
      if (typeof limit === 'string' || typeof limit === 'number') entry[comparison] = String(limit)
    }
    bounds[key] = entry
  }
  return bounds
}

function describeBounds(bounds: ResourceBounds): string {
  return Object.entries(bounds)
    .map(([key, bound]) => {
      const [field = 'limits', resource = 'cpu'] = key.split('.')
      const limits = (Object.entries(bound) as Array<[Comparison, string]>).map(([comparison, limit]) => `${COMPARISON_WORDS[comparison]} ${limit}`)
      return `${resource} ${field} ${limits.join(' and ')}`
    })
    .join(', ')
}

const RESOURCE_FIELD_WORDS = /\b(limits?|requests?)\b/
const RESOURCE_NAME_WORDS = /\b(cpus?|vcpus?|cores?|millicores?|memory|mem|ram)\b|\bephemeral[\s-]*storage\b/

function resourceValue(container: Json, field: string, resource: string): unknown {
  const resources = container.resources as Json | undefined
  return (resources?.[field] as Json | undefined)?.[resource]
}

function setResource(container: Json, field: string, resource: string, value: string | undefined): void {
  const values = mapIn(mapIn(container, 'resources'), field)
  if (value === undefined) delete values[resource]
  else values[resource] = value
}

function resourceKey(key: string): [string, string] {
  const [field = 'limits', resource = 'cpu'] = key.split('.')
  return [field, resource]
}

const resourcesBounded: RuleTemplate = {
  id: 'container-resources-bounded',
  title: 'Resource requests and limits within bounds',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['memory limit at most 2Gi', 'cpu limits no more than 2 cores', 'cpu requests at least 100m', 'limits of at most 512Mi memory and 1 cpu'],
  parameters: [
    {
      name: 'bounds',
      question: 'which bounds, with units (for example "memory limits at most 2Gi, cpu requests at least 100m")?',
      required: true,
      example: { 'limits.memory': { max: '2Gi' } },
    },
  ],
  recognize(clause) {
    const reading = readBounds(clause.text)
    const comparators = comparatorsIn(clause.normalized).length > 0
    if (reading.quantities === 0 && !comparators) return NOT_RECOGNIZED
    // A unit alone ("10m") is not enough: minutes, meters. A resource word or a byte unit is.
    const memoryUnit = quantities(clause.text).some((found) => found.unit === 'memory')
    if (!mentions(clause, RESOURCE_NAME_WORDS) && !(memoryUnit && mentions(clause, RESOURCE_FIELD_WORDS))) return NOT_RECOGNIZED
    if (!mentions(clause, RESOURCE_FIELD_WORDS, /\bresources?\b/, /\bcontainers?\b/) && !comparators) return NOT_RECOGNIZED
    if (!reading.complete || Object.keys(reading.bounds).length === 0) return recognized(3, {}, ['bounds'])
    return recognized(3, { bounds: reading.bounds })
  },
  rule(parameters) {
    const bounds = boundsOf(parameters.bounds)
    const checks = Object.entries(bounds).map(([key, bound]) => {
      const [field, resource] = resourceKey(key)
      const tests = (Object.entries(bound) as Array<[Comparison, string]>).map(([comparison, limit]) => `quantity(q).compareTo(quantity(${celString(limit)})) ${COMPARISON_CEL[comparison]}`)
      return `cel.bind(q, string(c.?resources.?${field}[?${celString(resource)}].orValue('')), isQuantity(q) && ${tests.join(' && ')})`
    })
    const description = describeBounds(bounds)
    const names = Object.entries(bounds).flatMap(([key, bound]) => {
      const [field, resource] = resourceKey(key)
      return Object.entries(bound).map(([comparison, limit]) => `${resource}-${field}-${comparison === 'max' ? 'at-most' : comparison === 'min' ? 'at-least' : comparison}-${limit}`)
    })
    return containerRule({
      name: slug(...names),
      description: `Keeps container resources within ${description}. Quantities compare by value (0.5 = 500m; 1Gi > 1G). A bounded field that is missing fails: an unset limit is unbounded, an unset request is whatever the scheduler assumes.`,
      severity: 'medium',
      // Kubernetes forbids resources on ephemeral containers.
      containers: APP_AND_INIT_CONTAINERS,
      predicate: checks.length > 0 ? checks.join(' && ') : 'true',
      message: `container resources must stay within ${description}`,
      remediation: `Set ${Object.keys(bounds)
        .map((key) => `resources.${key}`)
        .join(', ')} on every container and init container within ${description}; a missing value fails.`,
    })
  },
  samples(parameters) {
    const bounds = boundsOf(parameters.bounds)
    const entries = Object.entries(bounds)
    const bad: { description: string; edit: SampleEdit }[] = []
    for (const [index, [key, bound]] of entries.entries()) {
      const [field, resource] = resourceKey(key)
      const offending = offendingQuantity(bound)
      if (offending !== undefined) {
        bad.push({ description: `an app container with resources.${key}: ${offending}`, edit: (document) => setResource(firstContainerOf(document), field, resource, offending) })
      }
      if (index === 0) {
        bad.push({ description: `an init container without resources.${key}`, edit: (document) => setResource(firstInitContainerOf(document), field, resource, undefined) })
      }
    }
    return {
      good: [
        (document) => {
          for (const container of containersOf(document, ['containers', 'initContainers'])) {
            for (const [key, bound] of entries) {
              const [field, resource] = resourceKey(key)
              if (!satisfies(resourceValue(container, field, resource), bound)) setResource(container, field, resource, compliantQuantity(bound))
            }
          }
        },
      ],
      bad,
    }
  },
}

const DEFAULT_RESOURCE_VALUES: Record<string, string> = { cpu: '100m', memory: '128Mi', 'ephemeral-storage': '1Gi' }

const resourcesRequired: RuleTemplate = {
  id: 'container-resources-required',
  title: 'Resource requests and limits required',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['containers need cpu and memory limits', 'memory requests required', 'require resource requests and limits', 'every container must set cpu requests'],
  parameters: [
    { name: 'resources', question: 'which resources (cpu, memory, ephemeral-storage)?', required: false, example: ['cpu', 'memory'] },
    { name: 'fields', question: 'requests, limits, or both?', required: false, example: ['requests', 'limits'] },
  ],
  recognize(clause) {
    const fieldWord = mentions(clause, RESOURCE_FIELD_WORDS)
    const resourceWord = mentions(clause, RESOURCE_NAME_WORDS)
    const containerWord = mentions(clause, /\b(containers?|pods?|workloads?)\b/)
    // "every resource needs a team label" is about objects: only "resources" of containers are these fields.
    const resourcesWord = mentions(clause, /\bresource[\s-]*(requests?|limits?)\b|\bcompute[\s-]*resources?\b/) || (mentions(clause, /\bresources\b/) && containerWord)
    if (!fieldWord && !resourcesWord) return NOT_RECOGNIZED
    // "requests" and "limits" alone are ordinary words; with cpu, memory, resources or containers they are these fields.
    if (!resourceWord && !resourcesWord && !containerWord) return NOT_RECOGNIZED
    // A bare "memory requests" is a list item ("memory requests and limits at most 4Gi"): it joins its neighbour.
    if (!mentions(clause, /\b(requir\w*|need\w*|must|should|set|declare\w*|define\w*|specif\w*|have|has|mandatory|enforce\w*|without|missing)\b/)) return NOT_RECOGNIZED
    // A bound is the other template; "no cpu limits" is not a requirement.
    if (quantities(clause.text).length > 0 || comparatorsIn(clause.normalized).length > 0) return NOT_RECOGNIZED
    if (clause.negated && !mentions(clause, /\b(without|missing|unset|lacking)\b/)) return NOT_RECOGNIZED
    const resources = findAll(clause.normalized, RESOURCE_WORDS).map((found) => found.value)
    const fields = findAll(clause.normalized, FIELD_WORDS).map((found) => found.value)
    return recognized(3, {
      resources: resources.length > 0 ? [...new Set(resources)] : ['cpu', 'memory'],
      fields: fields.length > 0 ? [...new Set(fields)] : ['requests', 'limits'],
    })
  },
  rule(parameters) {
    const resources = stringsOf(parameters.resources)
    const fields = stringsOf(parameters.fields)
    const keys = fields.flatMap((field) => resources.map((resource) => `${field}.${resource}`))
    const checks = keys.map((key) => {
      const [field, resource] = resourceKey(key)
      return `c.?resources.?${field}[?${celString(resource)}].hasValue()`
    })
    const what = `${resources.join(' and ')} ${fields.join(' and ')}`
    return containerRule({
      name: slug(...resources, ...fields, 'required'),
      description: `Every container and init container must declare ${what}: without requests the scheduler packs nodes blindly, without limits one container can starve its neighbours.`,
      severity: 'medium',
      // Kubernetes forbids resources on ephemeral containers.
      containers: APP_AND_INIT_CONTAINERS,
      predicate: checks.length > 0 ? checks.join(' && ') : 'true',
      message: `containers must set ${what}`,
      remediation: `Set ${keys.map((key) => `resources.${key}`).join(', ')} on every container and init container (for example resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {cpu: 500m, memory: 256Mi}}).`,
    })
  },
  samples(parameters) {
    const resources = stringsOf(parameters.resources)
    const fields = stringsOf(parameters.fields)
    const firstField = fields[0] ?? 'limits'
    const firstResource = resources[0] ?? 'cpu'
    const lastResource = resources.at(-1) ?? firstResource
    return {
      good: [
        (document) => {
          for (const container of containersOf(document, ['containers', 'initContainers'])) {
            for (const field of fields) {
              for (const resource of resources) {
                if (resourceValue(container, field, resource) === undefined) setResource(container, field, resource, DEFAULT_RESOURCE_VALUES[resource] ?? '1')
              }
            }
          }
        },
      ],
      bad: [
        { description: `an app container without resources.${firstField}.${firstResource}`, edit: (document) => setResource(firstContainerOf(document), firstField, firstResource, undefined) },
        { description: `an init container without resources.${fields.at(-1) ?? firstField}.${lastResource}`, edit: (document) => setResource(firstInitContainerOf(document), fields.at(-1) ?? firstField, lastResource, undefined) },
        { description: 'an app container without any resources', edit: (document) => void delete firstContainerOf(document).resources },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Probes

type Probe = 'liveness' | 'readiness' | 'startup'
const PROBE_FIELDS: Record<Probe, string> = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' }

/** Controllers whose pods run to completion: a probe requirement makes no sense there. */
const LONG_RUNNING_CONTROLLERS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController']

const probesRequired: RuleTemplate = {
  id: 'container-probes-required',
  title: 'Liveness, readiness or startup probes required',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['containers need liveness and readiness probes', 'require readiness probes', 'every container must define a startup probe', 'pods must have health checks'],
  parameters: [{ name: 'probes', question: 'which probes: liveness, readiness, startup?', required: false, example: ['liveness', 'readiness'] }],
  recognize(clause) {
    const named: Probe[] = []
    if (mentions(clause, /\bliveness\b|livenessprobe/)) named.push('liveness')
    if (mentions(clause, /\breadiness\b|readinessprobe/)) named.push('readiness')
    const probeWord = mentions(clause, /\bprobes?\b|\bhealth[\s-]*checks?\b|\bhealthchecks?\b/)
    if (mentions(clause, /startupprobe/) || (mentions(clause, /\bstartup\b|\bstart[\s-]up\b/) && (probeWord || named.length > 0))) named.push('startup')
    if (named.length === 0 && !probeWord) return NOT_RECOGNIZED
    if (clause.negated && !mentions(clause, /\b(without|missing|lacking)\b/)) return NOT_RECOGNIZED
    return recognized(3, { probes: named.length > 0 ? named : ['liveness', 'readiness'] })
  },
  rule(parameters) {
    const probes = stringsOf(parameters.probes).filter((probe): probe is Probe => probe in PROBE_FIELDS)
    const fields = probes.map((probe) => PROBE_FIELDS[probe])
    const rule = containerRule({
      name: slug(...probes, 'probes-required'),
      description: `Every app container must define ${fields.join(' and ')}, so Kubernetes restarts it when stuck and routes traffic only when it is ready. Init and ephemeral containers cannot have probes; pods of Jobs and CronJobs run to completion and are not judged.`,
      severity: 'medium',
      containers: APP_CONTAINERS,
      predicate: fields.map((field) => `has(c.${field})`).join(' && ') || 'true',
      message: `containers must define ${fields.join(' and ')}`,
      remediation: `Add ${fields.join(' and ')} (httpGet, tcpSocket, grpc or exec) to every container in spec.containers.`,
    })
    rule.autogen = { controllers: LONG_RUNNING_CONTROLLERS }
    rule.match = { ...rule.match, conditions: [{ name: 'not-a-job-pod', expression: "!object.metadata.?ownerReferences.orValue([]).exists(o, o.?kind.orValue('') == 'Job')" }] }
    return rule
  },
  samples(parameters) {
    const probes = stringsOf(parameters.probes).filter((probe): probe is Probe => probe in PROBE_FIELDS)
    return {
      good: [
        (document) => {
          for (const container of containersOf(document, ['containers'])) {
            for (const probe of probes) {
              const field = PROBE_FIELDS[probe]
              if (container[field] === undefined) container[field] = { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10, ...(probe === 'startup' ? { failureThreshold: 30 } : {}) }
            }
          }
        },
      ],
      bad: probes.map((probe) => ({
        description: `an app container without ${PROBE_FIELDS[probe]}`,
        edit: (document: Json) => void delete firstContainerOf(document)[PROBE_FIELDS[probe]],
      })),
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Image pull policy

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const
const POLICY_WORDS = /\b(always|if[\s-]*not[\s-]*present|ifnotpresent|never)\b/g
const NEGATION_WORDS = /\b(no|not|never|dont|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|disallow(ed)?|forbid(den)?|avoid)\b/

const pullPolicy: RuleTemplate = {
  id: 'image-pull-policy',
  title: 'Image pull policy',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['imagePullPolicy must be Always', 'always pull images', 'image pull policy must not be Never', 'imagePullPolicy Always for :latest images'],
  parameters: [
    { name: 'policy', question: 'which imagePullPolicy: Always, IfNotPresent or Never?', required: false, example: 'Always' },
    { name: 'forbidden', question: 'is the policy forbidden rather than required?', required: false, example: false },
    { name: 'onlyLatest', question: 'only for images that run :latest?', required: false, example: false },
  ],
  recognize(clause) {
    const policyWords = mentions(clause, PULL_POLICY_WORDS)
    if (!policyWords && !mentions(clause, ALWAYS_PULL)) return NOT_RECOGNIZED
    // "always pull from registry.acme.io" is about the registry.
    if (!policyWords && registryEntries(clause).length > 0) return NOT_RECOGNIZED
    const words = [...clause.normalized.matchAll(POLICY_WORDS)]
    const last = words.at(-1)
    const word = last?.[0].replace(/[\s-]/g, '') ?? 'always'
    const policy = word === 'ifnotpresent' ? 'IfNotPresent' : word === 'never' ? 'Never' : 'Always'
    // "never" can be the value itself ("must be Never"): negation is read without it.
    const rest = last ? clause.normalized.slice(0, last.index) + clause.normalized.slice(last.index + last[0].length) : clause.normalized
    // "is set to Always when ... a tag is not defined at all": a negation inside the "when" clause says which images, not the policy's polarity.
    const mainClause = rest.split(/\b(?:when|where|whenever|if|unless|whose)\b/)[0] ?? rest
    const forbidden = NEGATION_WORDS.test(mainClause)
    return recognized(3, { policy, forbidden, onlyLatest: mentions(clause, LATEST) })
  },
  rule(parameters) {
    const policy = typeof parameters.policy === 'string' && (PULL_POLICIES as readonly string[]).includes(parameters.policy) ? parameters.policy : 'Always'
    const forbidden = parameters.forbidden === true
    const onlyLatest = parameters.onlyLatest === true
    const check = forbidden ? `c.?imagePullPolicy.orValue('') != ${celString(policy)}` : `c.?imagePullPolicy.orValue('') == ${celString(policy)}`
    const scope = onlyLatest ? ' whose image runs :latest (tagged latest or untagged)' : ''
    return containerRule({
      name: slug('image-pull-policy', forbidden ? 'not' : '', policy, onlyLatest ? 'for-latest' : ''),
      description: forbidden
        ? `imagePullPolicy ${policy} is not allowed on containers${scope}. A missing imagePullPolicy passes: Kubernetes defaults it to Always or IfNotPresent.`
        : `Containers${scope} must set imagePullPolicy: ${policy}${policy === 'Always' ? ', so every start checks the registry (and its credentials) rather than a node\'s cache' : ''}. A missing imagePullPolicy fails: the rule asks for it explicitly.`,
      severity: 'low',
      containers: ALL_CONTAINERS,
      predicate: onlyLatest ? `!cel.bind(i, c.?image.orValue(''), ${celRunsLatest('i')}) || ${check}` : check,
      message: forbidden ? `imagePullPolicy must not be ${policy}` : `imagePullPolicy must be ${policy}${scope}`,
      remediation: forbidden
        ? `Set imagePullPolicy to ${PULL_POLICIES.filter((value) => value !== policy).join(' or ')} (or remove it) on every container, init container and ephemeral container${scope}.`
        : `Set imagePullPolicy: ${policy} on every container, init container and ephemeral container${scope}.`,
      show: onlyLatest ? 'image' : 'name',
    })
  },
  samples(parameters) {
    const policy = typeof parameters.policy === 'string' ? parameters.policy : 'Always'
    const forbidden = parameters.forbidden === true
    const onlyLatest = parameters.onlyLatest === true
    const other = policy === 'IfNotPresent' ? 'Always' : 'IfNotPresent'
    const runsLatest = (image: unknown): boolean => {
      const reference = parseImage(typeof image === 'string' ? image : '')
      return reference.tag === 'latest' || (reference.tag === undefined && reference.digest === undefined)
    }
    const good: SampleEdit = (document) => {
      for (const container of containersOf(document)) {
        if (onlyLatest && !runsLatest(container.image)) continue
        if (forbidden) {
          if (container.imagePullPolicy === policy) container.imagePullPolicy = other
        } else {
          container.imagePullPolicy = policy
        }
      }
    }
    if (forbidden) {
      return {
        good: [good],
        bad: [
          {
            description: `an app container with imagePullPolicy: ${policy}${onlyLatest ? ' and a :latest image' : ''}`,
            edit: (document) => {
              const container = firstContainerOf(document)
              if (onlyLatest) setImage(container, (reference) => ({ ...reference, tag: 'latest', digest: undefined }))
              container.imagePullPolicy = policy
            },
          },
        ],
      }
    }
    if (onlyLatest) {
      return {
        good: [good],
        bad: [
          {
            description: `an app container with a :latest image and imagePullPolicy: ${other}`,
            edit: (document) => {
              const container = firstContainerOf(document)
              setImage(container, (reference) => ({ ...reference, tag: 'latest', digest: undefined }))
              container.imagePullPolicy = other
            },
          },
          {
            description: 'an init container with an untagged image and no imagePullPolicy',
            edit: (document) => {
              const container = firstInitContainerOf(document)
              setImage(container, (reference) => ({ ...reference, tag: undefined, digest: undefined }))
              delete container.imagePullPolicy
            },
          },
        ],
      }
    }
    return {
      good: [good],
      bad: [
        { description: `an app container with imagePullPolicy: ${other}`, edit: (document) => void (firstContainerOf(document).imagePullPolicy = other) },
        { description: 'an init container without imagePullPolicy', edit: (document) => void delete firstInitContainerOf(document).imagePullPolicy },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Service account token automount

const automountDisabled: RuleTemplate = {
  id: 'service-account-token-automount-disabled',
  title: 'Service account tokens not automounted',
  platform: 'kubernetes',
  category: 'workload',
  // Authors say "service account token", which names the ServiceAccount kind: the rule judges both.
  kinds: ['Pod', 'ServiceAccount'],
  phrasings: ['automountServiceAccountToken must be false', 'do not automount service account tokens', 'pods must disable service account token automounting'],
  parameters: [],
  recognize(clause) {
    const automount = mentions(clause, /auto[\s-]*mount/)
    const token = mentions(clause, /\b(service[\s-]*account|sa)[\s-]*tokens?\b|\bapi tokens?\b/)
    if (!automount && !(token && mentions(clause, /\bmount(s|ed|ing)?\b/))) return NOT_RECOGNIZED
    return recognized(3)
  },
  rule: () => ({
    ...podRule({
      name: 'no-service-account-token-automount',
      description:
        'A pod that does not call the Kubernetes API needs no service account token; an automounted one is a credential any compromised container can use. The pod spec must say so itself: when it is silent, the ServiceAccount decides, which admission of the pod cannot see.',
      severity: 'medium',
      expression:
        "object.kind == 'ServiceAccount' ? object.?automountServiceAccountToken.orValue(true) == false : object.spec.?automountServiceAccountToken.orValue(true) == false",
      message: 'automountServiceAccountToken must be false',
      remediation:
        'Set spec.automountServiceAccountToken: false in the pod spec (spec.template.spec for controllers), and automountServiceAccountToken: false on ServiceAccounts. The pod-level field wins over the ServiceAccount\'s; a pod that does need API access can mount a projected serviceAccountToken volume with a short expiry and an audience.',
    }),
    match: { kinds: ['Pod', 'ServiceAccount'] },
  }),
  samples: () => ({
    good: [],
    bad: [
      {
        description: 'automountServiceAccountToken: true',
        edit: (document) => {
          if (document.kind === 'ServiceAccount') document.automountServiceAccountToken = true
          for (const spec of podSpecsOf(document)) spec.automountServiceAccountToken = true
        },
      },
      {
        description: 'no automountServiceAccountToken (the default mounts the token)',
        edit: (document) => {
          if (document.kind === 'ServiceAccount') delete document.automountServiceAccountToken
          for (const spec of podSpecsOf(document)) delete spec.automountServiceAccountToken
        },
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Read-only root filesystem

const readOnlyRootFilesystem: RuleTemplate = {
  id: 'read-only-root-filesystem',
  title: 'Read-only root filesystem',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['containers must use a read-only root filesystem', 'require readOnlyRootFilesystem', 'root filesystems must be read only'],
  parameters: [],
  recognize(clause) {
    if (mentions(clause, /readonlyrootfilesystem/)) return recognized(3)
    const readOnly = mentions(clause, /\bread[\s-]*only\b|\bimmutable\b|\bwrite[\s-]*protected\b/)
    const filesystem = mentions(clause, /\b(root[\s-]*)?file[\s-]*systems?\b|\broot[\s-]*fs\b|\brootfs\b/)
    if (!readOnly || !filesystem) return NOT_RECOGNIZED
    return recognized(3)
  },
  rule: () =>
    containerRule({
      name: 'read-only-root-filesystem',
      description: 'A read-only root filesystem stops an attacker from dropping binaries or changing the image\'s files; the app writes only to mounted volumes.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      predicate: 'c.?securityContext.?readOnlyRootFilesystem.orValue(false) == true',
      message: 'containers must have securityContext.readOnlyRootFilesystem: true',
      remediation:
        'Set securityContext.readOnlyRootFilesystem: true on every container, init container and ephemeral container; mount an emptyDir volume where the app needs to write (/tmp, caches).',
    }),
  samples: () => ({
    good: [(document) => containersOf(document).forEach((container) => void (mapIn(container, 'securityContext').readOnlyRootFilesystem = true))],
    bad: [
      { description: 'an app container with readOnlyRootFilesystem: false', edit: (document) => void (mapIn(firstContainerOf(document), 'securityContext').readOnlyRootFilesystem = false) },
      { description: 'an init container without readOnlyRootFilesystem', edit: (document) => void delete mapIn(firstInitContainerOf(document), 'securityContext').readOnlyRootFilesystem },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Credentials in environment variables

/**
 * Env var names that hold a credential: ending in PASSWORD, PASSWD, PASSPHRASE, PASS, SECRET,
 * TOKEN, API_KEY, PRIVATE_KEY, ACCESS_KEY, SECRET_KEY, CREDENTIAL(S), any case, digits after
 * allowed. Ending rather than containing, so TOKEN_TTL or PASSWORD_FILE (a path to a mounted
 * file, the recommended way) are not flagged.
 */
const SECRET_NAME_PATTERN = '(?i)(pass(word|wd|phrase)|(^|[^a-z])pass|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|secret[_-]?key|credentials?)[0-9]*$'
const celSecretName = (name: string): string => `${name}.matches(${celString(SECRET_NAME_PATTERN)})`

const ENV_WORDS = /\b(env|envs|environment|env[\s-]*vars?|variables?|vars?)\b|envfrom/
const CREDENTIAL_WORDS = /\b(secrets?|passwords?|passwd|passphrases?|tokens?|credentials?|api[\s-]*keys?|private[\s-]*keys?|access[\s-]*keys?|sensitive)\b/
const SECRET_REF_WORDS = /secretkeyref|secret[\s-]*key[\s-]*ref|valuefrom|secretref|\bsecret[\s-]*ref(erence)?s?\b/
const LITERAL_WORDS = /\b(plain|plaintext|plain[\s-]*text|literal(s|ly)?|hard[\s-]*coded|inline(d)?|clear[\s-]*text|cleartext|raw|values?)\b/

/** Which credential-in-env template the clause asks for, if any. */
function envCredentialsClause(clause: Clause): 'from-secret-refs' | 'none' | undefined {
  if (!mentions(clause, ENV_WORDS, SECRET_REF_WORDS)) return undefined
  const refs = mentions(clause, SECRET_REF_WORDS)
  if (!refs && !mentions(clause, CREDENTIAL_WORDS)) return undefined
  if (mentions(clause, LITERAL_WORDS) || (refs && !clause.negated)) return 'from-secret-refs'
  if (clause.negated || mentions(clause, /\bas files\b|\bmounted files?\b|\bvolumes?\b/)) return 'none'
  return undefined
}

function appendEnv(container: Json, entry: Json): void {
  container.env = [...(Array.isArray(container.env) ? (container.env as unknown[]) : []), entry]
}

const envFromSecretRefs: RuleTemplate = {
  id: 'env-secrets-from-secret-refs',
  title: 'Credentials in env vars come from Secrets',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: [
    'passwords in env vars must come from secretKeyRef',
    'no plain-text passwords in environment variables',
    'tokens and API keys in env must use valueFrom.secretKeyRef',
    'credentials must not be literal values in env vars',
  ],
  parameters: [],
  recognize: (clause) => (envCredentialsClause(clause) === 'from-secret-refs' ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    containerRule({
      name: 'credential-env-from-secret-key-refs',
      description:
        'A credential written as a literal env value lives in the manifest, in git and in every copy of the object. Env vars whose name ends like a credential (PASSWORD, SECRET, TOKEN, API_KEY, PRIVATE_KEY, ACCESS_KEY, CREDENTIALS, any case) must take their value from valueFrom.secretKeyRef; names like DB_PASSWORD_FILE (a path) are not credentials.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      predicate: `c.?env.orValue([]).all(e, !${celSecretName("e.?name.orValue('')")} || e.?valueFrom.?secretKeyRef.hasValue())`,
      message: 'env vars holding credentials must come from valueFrom.secretKeyRef',
      remediation:
        'Move the value into a Secret and replace env[].value with env[].valueFrom.secretKeyRef {name, key} on every container, init container and ephemeral container (or mount the Secret as a file and pass its path, e.g. DB_PASSWORD_FILE).',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with env DB_PASSWORD as a literal value', edit: (document) => appendEnv(firstContainerOf(document), { name: 'DB_PASSWORD', value: 'hunter2' }) },
      {
        description: 'an init container with env api_token from a ConfigMap',
        edit: (document) => appendEnv(firstInitContainerOf(document), { name: 'api_token', valueFrom: { configMapKeyRef: { name: 'web-config', key: 'token' } } }),
      },
    ],
  }),
}

const envNoSecrets: RuleTemplate = {
  id: 'env-no-secrets',
  title: 'No credentials in environment variables',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['no secretKeyRef env vars', 'credentials must not be passed as environment variables', 'mount credentials as files, not environment variables'],
  parameters: [],
  recognize: (clause) => (envCredentialsClause(clause) === 'none' ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    containerRule({
      name: 'no-credentials-in-env',
      description:
        'Environment variables leak: into crash dumps, child processes, /proc and logs of "print the config". Credentials must reach the container as files from a Secret volume instead: no env[].valueFrom.secretKeyRef, no envFrom[].secretRef, and no env var whose name ends like a credential (PASSWORD, SECRET, TOKEN, API_KEY...), whatever its source.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      predicate:
        `c.?env.orValue([]).all(e, !e.?valueFrom.?secretKeyRef.hasValue() && !${celSecretName("e.?name.orValue('')")})` +
        ' && c.?envFrom.orValue([]).all(f, !f.?secretRef.hasValue())',
      message: 'credentials must not be passed in environment variables',
      remediation:
        'Remove env[].valueFrom.secretKeyRef and envFrom[].secretRef from every container, init container and ephemeral container; mount the Secret as a volume (volumes[].secret plus volumeMounts, readOnly) and point the app at the file, e.g. with DB_PASSWORD_FILE=/var/run/secrets/db/password.',
    }),
  samples: () => ({
    good: [],
    bad: [
      {
        description: 'an app container with env from valueFrom.secretKeyRef',
        edit: (document) => appendEnv(firstContainerOf(document), { name: 'DB_URL', valueFrom: { secretKeyRef: { name: 'web-secret', key: 'url' } } }),
      },
      { description: 'an init container with envFrom a Secret', edit: (document) => void (firstInitContainerOf(document).envFrom = [{ secretRef: { name: 'web-secret' } }]) },
      { description: 'an app container with a literal GITHUB_TOKEN', edit: (document) => appendEnv(firstContainerOf(document), { name: 'GITHUB_TOKEN', value: 'ghp_example' }) },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Priority classes

/** Words around class names that are not names themselves. */
const NOT_CLASS_NAMES = new Set(
  (
    'must be set one of any a an the is are required require requires mandatory class classes name priority pods pod to in either defined present given ' +
    'specified non empty use uses using have has need needs not no never only with without every all their its our workloads workload containers ' +
    'deployments deployment run runs forbidden banned disallowed allowed denied blocked may can should'
  ).split(' '),
)

const PRIORITY_CLASS_WORDS = /priorityclass(name)?|\bpriority[\s-]*class(es|[\s-]*names?)?\b/i

function priorityClassNames(text: string): string[] {
  const isName = (word: string): boolean => /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(word) && !NOT_CLASS_NAMES.has(word)
  const fromQuotes = quoted(text).filter(isName)
  if (fromQuotes.length > 0) return fromQuotes
  const rest = text.replace(new RegExp(PRIORITY_CLASS_WORDS.source, 'gi'), ' ')
  const listed = listAfter(rest, /\b(one of|any of|among|either)\b\s*:?\s*/i, isName)
  if (listed.length > 0) return listed
  const stated = listAfter(rest, /(?:\b(?:must be|should be|be set to|set to|equal to|is)\b|[=:])\s*/i, isName)
  if (stated.length > 0) return stated
  // "must not use the system-node-critical priority class"
  return listBefore(text, PRIORITY_CLASS_WORDS, isName)
}

function priorityOutside(forbidden: readonly string[]): string {
  return ['standard', 'workload-default', 'normal-priority'].find((name) => !forbidden.includes(name)) ?? 'workload-default'
}

const priorityClass: RuleTemplate = {
  id: 'priority-class-required',
  title: 'Priority class required (or restricted)',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['priorityClassName required', 'priorityClassName must be one of high, medium', 'pods must set a priority class', 'workloads must not use the system-node-critical priority class'],
  parameters: [
    { name: 'allowed', question: 'which priority classes are allowed (none: any, as long as one is set)?', required: false, example: ['high', 'medium'] },
    { name: 'forbidden', question: 'which priority classes are forbidden?', required: false, example: ['system-node-critical'] },
  ],
  recognize(clause) {
    if (!mentions(clause, PRIORITY_CLASS_WORDS)) return NOT_RECOGNIZED
    const names = priorityClassNames(clause.text)
    if (names.length === 0) return recognized(3)
    // "must not run without a priority class" has no names: it is the requirement.
    const forbidden = clause.negated && !mentions(clause, ONLY_WORDS)
    return recognized(3, forbidden ? { forbidden: names } : { allowed: names })
  },
  rule(parameters) {
    const allowed = stringsOf(parameters.allowed)
    const forbidden = stringsOf(parameters.forbidden)
    const name = "object.spec.?priorityClassName.orValue('')"
    const description = 'Without a priority class a pod gets the cluster default, and under pressure the scheduler may preempt what matters for what does not.'
    if (forbidden.length > 0) {
      return podRule({
        name: slug('priority-class-not', ...forbidden),
        description: `${forbidden.join(', ')} ${forbidden.length === 1 ? 'is' : 'are'} reserved: a workload with ${forbidden.length === 1 ? 'it' : 'one of them'} preempts everything else on its nodes. A pod without a priorityClassName passes.`,
        severity: 'medium',
        expression: `!(${name} in ${celStringList(forbidden)})`,
        message: `priorityClassName must not be ${forbidden.join(' or ')}`,
        remediation: `Set spec.priorityClassName (spec.template.spec for controllers) to a class other than ${forbidden.join(', ')}, or remove it.`,
      })
    }
    return podRule({
      name: slug('priority-class', allowed.length > 0 ? `in-${allowed.join('-')}` : 'required'),
      description,
      severity: 'low',
      expression: allowed.length > 0 ? `${name} in ${celStringList(allowed)}` : `${name} != ''`,
      message: allowed.length > 0 ? `priorityClassName must be one of ${allowed.join(', ')}` : 'pods must set priorityClassName',
      remediation:
        allowed.length > 0
          ? `Set spec.priorityClassName (spec.template.spec for controllers) to one of ${allowed.join(', ')}.`
          : "Set spec.priorityClassName (spec.template.spec for controllers) to one of the cluster's PriorityClasses.",
    })
  },
  samples(parameters) {
    const allowed = stringsOf(parameters.allowed)
    const forbidden = stringsOf(parameters.forbidden)
    const setAll = (value: string | undefined) => (document: Json) =>
      podSpecsOf(document).forEach((spec) => {
        if (value === undefined) delete spec.priorityClassName
        else spec.priorityClassName = value
      })
    if (forbidden.length > 0) {
      return {
        good: [(document) => podSpecsOf(document).forEach((spec) => void (forbidden.includes(String(spec.priorityClassName)) && (spec.priorityClassName = priorityOutside(forbidden))))],
        bad: forbidden.map((value) => ({ description: `priorityClassName: ${value}`, edit: setAll(value) })),
      }
    }
    return {
      good: [setAll(allowed[0] ?? 'standard')],
      bad: [
        { description: 'no priorityClassName', edit: setAll(undefined) },
        allowed.length > 0 ? { description: 'priorityClassName: unlisted-priority', edit: setAll('unlisted-priority') } : { description: 'an empty priorityClassName', edit: setAll('') },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Container ports

function portStrings(ranges: ReadonlyArray<readonly [number, number]>): string[] {
  return ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`))
}

function portRangesOf(value: ParameterValue | undefined): Array<[number, number]> {
  return stringsOf(value).flatMap((text) => {
    const [from, to = from] = text.split('-').map(Number)
    return from !== undefined && Number.isInteger(from) && Number.isInteger(to) ? [[from, to] as [number, number]] : []
  })
}

const inRanges = (port: number, ranges: ReadonlyArray<readonly [number, number]>): boolean => ranges.some(([from, to]) => port >= from && port <= to)

const containerPortDenied: RuleTemplate = {
  id: 'container-port-denied',
  title: 'No containers listening on given ports',
  platform: 'kubernetes',
  category: 'workload',
  kinds: ['Pod'],
  phrasings: ['no containers listening on port 22', 'containers must not expose port 3389', 'disallow container ports 30000-32767'],
  parameters: [{ name: 'ports', question: 'which ports or port ranges must containers not listen on?', required: true, example: ['22'] }],
  recognize(clause) {
    if (!mentions(clause, /\bports?\b|containerports?/)) return NOT_RECOGNIZED
    // Host ports are Pod Security's; node ports and service ports are the Service's.
    if (mentions(clause, /\bhost[\s-]*ports?\b|\bnode[\s-]*ports?\b|\bservices?\b|\bingress/)) return NOT_RECOGNIZED
    if (!mentions(clause, /\bcontainers?\b|containerports?|\blisten(s|ing)?\b|\bexpos(e|es|ed|ing)\b/)) return NOT_RECOGNIZED
    if (!clause.negated) return NOT_RECOGNIZED
    const ports = portStrings(portRanges(clause.text))
    return ports.length > 0 ? recognized(3, { ports }) : recognized(2, {}, ['ports'])
  },
  rule(parameters) {
    const ranges = portRangesOf(parameters.ports)
    const ports = portStrings(ranges)
    const portWord = ports.length === 1 && !ports[0]?.includes('-') ? 'port' : 'ports'
    const port = 'p.?containerPort.orValue(0)'
    const tests = ranges.map(([from, to]) => (from === to ? `${port} == ${from}` : `(${port} >= ${from} && ${port} <= ${to})`))
    return containerRule({
      name: slug('no-container-port', ...ports),
      description: `Containers must not declare ${portWord} ${ports.join(', ')} (ports[].containerPort): a service listening there (sshd, RDP, the Docker API...) is a way in that the workload should not need.`,
      severity: 'medium',
      // Kubernetes forbids ports on ephemeral containers.
      containers: APP_AND_INIT_CONTAINERS,
      predicate: tests.length > 0 ? `c.?ports.orValue([]).all(p, !(${tests.join(' || ')}))` : 'true',
      message: `containers must not listen on ${portWord} ${ports.join(', ')}`,
      remediation: `Remove ports[].containerPort ${ports.join(', ')} from every container and init container, and stop the process listening there (for shell access use kubectl exec or an ephemeral debug container instead of sshd).`,
    })
  },
  samples(parameters) {
    const ranges = portRangesOf(parameters.ports)
    const first = ranges[0]?.[0] ?? 22
    const free = [8080, 8443, 9090, 10080, 18080, 40000, 50000, 60000].find((candidate) => !inRanges(candidate, ranges)) ?? 1
    return {
      good: [
        (document) => {
          for (const container of containersOf(document, ['containers', 'initContainers'])) {
            if (!Array.isArray(container.ports)) continue
            for (const entry of container.ports as Json[]) if (typeof entry.containerPort === 'number' && inRanges(entry.containerPort, ranges)) entry.containerPort = free
          }
        },
      ],
      bad: [
        {
          description: `an app container with containerPort ${first}`,
          edit: (document) => {
            const container = firstContainerOf(document)
            container.ports = [...(Array.isArray(container.ports) ? (container.ports as unknown[]) : []), { name: 'denied', containerPort: first, protocol: 'TCP' }]
          },
        },
        {
          description: `an init container with containerPort ${ranges.at(-1)?.[1] ?? first}`,
          edit: (document) => void (firstInitContainerOf(document).ports = [{ containerPort: ranges.at(-1)?.[1] ?? first, protocol: 'TCP' }]),
        },
      ],
    }
  },
}

export const WORKLOAD_TEMPLATES: readonly RuleTemplate[] = [
  notLatest,
  tagRequired,
  digestRequired,
  registryAllowed,
  registryDenied,
  resourcesRequired,
  resourcesBounded,
  probesRequired,
  pullPolicy,
  automountDisabled,
  readOnlyRootFilesystem,
  envFromSecretRefs,
  envNoSecrets,
  priorityClass,
  containerPortDenied,
]
