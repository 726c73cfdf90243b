import { RE2JS } from 're2js'

/**
 * Container image references as Kyverno reads them (pkg/utils/image GetImageInfo over
 * distribution/reference v0.6.0 and go-digest): a name without a registry gets the default
 * registry (`nginx` is `docker.io/nginx`, with no `library/`), a reference without tag or digest
 * gets the tag `latest`, and the result carries registry, path, name, tag, digest, reference and
 * referenceWithTag exactly as Kyverno builds them.
 */

export interface ImageInfo {
  readonly registry: string
  readonly path: string
  readonly name: string
  readonly tag: string
  readonly digest: string
  /** `registry/path:tag`, or `registry/path@digest` when there is a digest. */
  readonly reference: string
  /** `registry/path:tag` even when there is a digest (then the tag may be empty). */
  readonly referenceWithTag: string
}

export interface ImageOptions {
  /** Kyverno's `defaultRegistry` setting; `docker.io` by default. */
  readonly defaultRegistry?: string
  /** Kyverno's `enableDefaultRegistryMutation`; true by default. */
  readonly enableDefaultRegistryMutation?: boolean
}

const alphanumeric = '[a-z0-9]+'
const separator = '(?:[._]|__|[-]+)'
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const optionalPort = '(?::[0-9]+)?'
const tag = '[\\w][\\w.-]{0,127}'
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}'
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]'
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`
const domainAndPort = `(?:${domainName}|${ipv6address})${optionalPort}`
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`
const remoteName = `${pathComponent}(?:/${pathComponent})*`
const namePattern = `(?:${domainAndPort}/)?${remoteName}`

const REFERENCE = RE2JS.compile(`^(${namePattern})(?::(${tag}))?(?:@(${digest}))?$`)
const ANCHORED_NAME = RE2JS.compile(`^(?:(${domainAndPort})/)?(${remoteName})$`)

const NAME_TOTAL_LENGTH_MAX = 255
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 }
const ANCHORED_DIGEST = RE2JS.compile('^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$')

interface ParsedReference {
  readonly domain: string
  readonly path: string
  readonly tag: string
  readonly digest: string
}

/** distribution/reference's Parse; throws with its error text. */
export function parseDistributionReference(text: string): ParsedReference {
  const match = REFERENCE.matcher(text)
  if (!match.matches()) {
    if (text === '') throw new Error('repository name must have at least one component')
    if (REFERENCE.matcher(text.toLowerCase()).matches()) throw new Error('repository name must be lowercase')
    throw new Error('invalid reference format')
  }
  const name = match.group(1) ?? ''
  const nameMatch = ANCHORED_NAME.matcher(name)
  const [domain, path] = nameMatch.matches() ? [nameMatch.group(1) ?? '', nameMatch.group(2) ?? ''] : ['', name]
  if (path.length > NAME_TOTAL_LENGTH_MAX) throw new Error(`repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`)
  const digestText = match.group(3) ?? ''
  if (digestText !== '') validateDigest(digestText)
  return { domain, path, tag: match.group(2) ?? '', digest: digestText }
}

/** go-digest's Digest.Validate for the algorithms Kyverno links (sha256, sha384, sha512). */
function validateDigest(text: string): void {
  const colon = text.indexOf(':')
  if (colon <= 0 || colon + 1 === text.length) throw new Error('invalid checksum digest format')
  const algorithm = text.slice(0, colon)
  const encoded = text.slice(colon + 1)
  const length = Object.hasOwn(DIGEST_HEX_LENGTH, algorithm) ? DIGEST_HEX_LENGTH[algorithm] : undefined
  if (length === undefined) {
    if (!ANCHORED_DIGEST.matcher(text).matches()) throw new Error('invalid checksum digest format')
    throw new Error('unsupported digest algorithm')
  }
  if (encoded.length !== length) throw new Error('invalid checksum digest length')
  if (!/^[a-f0-9]+$/.test(encoded)) throw new Error('invalid checksum digest format')
}

/** Kyverno's addDefaultRegistry: prefixes the registry unless the first segment looks like a host. */
function withDefaultRegistry(image: string, registry: string): string {
  const slash = image.indexOf('/')
  if (slash < 0) return `${registry}/${image}`
  const first = image.slice(0, slash)
  if (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first) return `${registry}/${image}`
  return image
}

/** Kyverno's GetImageInfo. Throws Kyverno's "bad image: ..." error. */
export function parseImageReference(image: string, options: ImageOptions = {}): ImageInfo {
  const defaultRegistry = options.defaultRegistry ?? 'docker.io'
  const mutate = options.enableDefaultRegistryMutation ?? true
  const full = withDefaultRegistry(image, defaultRegistry)
  let parsed: ParsedReference
  try {
    parsed = parseDistributionReference(full)
  } catch (error) {
    throw new Error(
      `bad image: ${full}, defaultRegistry: ${defaultRegistry}, enableDefaultRegistryMutation: ${String(mutate)}: ${(error as Error).message}`,
      { cause: error },
    )
  }
  let registry = parsed.domain
  let path = parsed.path
  const name = path.slice(path.lastIndexOf('/') + 1)
  const tagText = parsed.digest === '' && parsed.tag === '' ? 'latest' : parsed.tag
  if (full !== image && !mutate) registry = ''
  const referenceWithTag = registry !== '' ? `${registry}/${path}:${tagText}` : `${path}:${tagText}`
  const base = registry !== '' ? `${registry}/${path}` : path
  const reference = parsed.digest !== '' ? `${base}@${parsed.digest}` : `${base}:${tagText}`
  const parts = path.split('/')
  if (parts.length > 1 && registry === '' && (parts[0] as string).includes('_')) {
    registry = parts[0] as string
    path = parts.slice(1).join('/')
  }
  return { registry, path, name, tag: tagText, digest: parsed.digest, reference, referenceWithTag }
}

/** ImageInfo.String() over the final fields, as image_normalize() prints it. */
export function formatImageInfo(info: ImageInfo): string {
  const base = info.registry !== '' ? `${info.registry}/${info.path}` : info.path
  return info.digest !== '' ? `${base}@${info.digest}` : `${base}:${info.tag}`
}
