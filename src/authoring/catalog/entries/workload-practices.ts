import type { NamedRequirement } from '../named-requirement.js'

/**
 * Workload best practices as named requirements: where images come from and how they are
 * referenced, resources, probes, pull policy, service account tokens, read-only root
 * filesystems, credentials in environment variables, priority classes and container ports.
 *
 * Containers: every container type Kubernetes allows the field on is judged (app, init and
 * ephemeral containers for images, pull policy, securityContext and env; app and init ones for
 * resources and ports; app containers only for probes). "Must be X" rules fail when the field is
 * missing, "must not be X" rules pass. Scores: 3 when the clause names the requirement's field or
 * concept, as the Pod Security controls do, so a tie between the two families is a real
 * ambiguity rather than an accident of scale.
 */

/**
 * CEL: whether env var `e` is named like a credential: ending in PASSWORD, PASSWD, PASSPHRASE,
 * PASS, SECRET, TOKEN, API_KEY, PRIVATE_KEY, ACCESS_KEY, SECRET_KEY, CREDENTIAL(S), any case,
 * digits after allowed. Ending rather than containing, so TOKEN_TTL or PASSWORD_FILE (a path to a
 * mounted file, the recommended way) are not flagged.
 */
const CREDENTIAL_NAME = "e.?name.orValue('').matches('(?i)(pass(word|wd|phrase)|(^|[^a-z])pass|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|secret[_-]?key|credentials?)[0-9]*$')"

const PRIORITY_CLASS_WHY = 'Without a priority class a pod gets the cluster default, and under pressure the scheduler may preempt what matters for what does not.'

export const WORKLOAD_PRACTICES_ENTRIES: readonly NamedRequirement[] = [
  // -------------------------------------------------------------------------------------------
  // Image tags and digests
  {
    id: 'image-tag-not-latest',
    title: 'No :latest image tags',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['never use the :latest tag', 'images must not use the latest tag', 'no latest images', 'disallow :latest image tags'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { mentions: [{ words: 'latest-tag' }] },
          // "imagePullPolicy Always for :latest" is the pull policy; "pin by digest, not :latest" the digest rule.
          { not: { mentions: [{ words: 'pull-policy-words' }, { words: 'always-pull' }, { words: 'digest-words' }] } },
          { any: [{ mentions: [{ re: ':latest\\b' }, { re: '\\btags?\\b' }, { words: 'image-words' }, { re: '\\bcontainers?\\b' }] }, { negated: true }] },
        ],
      },
      score: 3,
    },
    values: [{ use: 'image-cel' }],
    rule: {
      use: 'container-rule',
      with: {
        name: 'image-tag-not-latest',
        description:
          'An image tagged :latest, or not tagged at all (which pulls :latest), changes under the workload without a deploy: rollbacks and audits cannot tell what ran. An image pinned by digest alone is fine.',
        severity: 'medium',
        containers: 'all',
        predicate: "cel.bind(i, c.?image.orValue(''), i == '' || !{{image-runs-latest}})",
        message: 'images must not use the :latest tag or omit the tag',
        remediation:
          'Set image on every container, init container and ephemeral container to an explicit version tag (registry.example.com/app:1.4.2) or a digest (@sha256:...), never :latest and never without a tag.',
        show: 'image',
      },
    },
    samples: {
      bad: [
        { description: 'an app container image tagged :latest', edit: { at: 'first-container', change: { use: 'image', with: { tag: 'latest' } } } },
        { description: 'an init container image without a tag (implicitly :latest)', edit: { at: 'first-init-container', change: { use: 'image', with: { tag: null, digest: null } } } },
      ],
    },
  },
  {
    id: 'image-tag-required',
    title: 'Images must have a tag',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['images must have an explicit tag', 'no untagged images', 'every container image needs a version tag'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\b(tags?|tagged|untagged)\\b' }] },
          { mentions: [{ words: 'image-words' }, { re: '\\buntagged\\b' }] },
          { not: { mentions: [{ words: 'latest-tag' }, { words: 'pull-policy-words' }] } },
          // A digest alone is the digest rule; "a tag or a digest" is this one, more surely.
          { any: [{ not: { mentions: [{ words: 'digest-words' }] } }, { mentions: [{ words: 'tag-or-digest' }] }] },
        ],
      },
      score: [{ when: { mentions: [{ words: 'tag-or-digest' }] }, score: 4 }, { score: 3 }],
    },
    values: [{ use: 'image-cel' }],
    rule: {
      use: 'container-rule',
      with: {
        name: 'image-tag-required',
        description: 'An image without a tag pulls :latest, whatever that is on the day. A digest pins the image even more strictly, so an image with a digest and no tag complies.',
        severity: 'medium',
        containers: 'all',
        predicate: "cel.bind(i, c.?image.orValue(''), i != '' && ({{image-tag}} != '' || i.contains('@')))",
        message: 'images must have an explicit tag or digest',
        remediation: 'Add a version tag (:1.4.2) or a digest (@sha256:...) to image on every container, init container and ephemeral container.',
        show: 'image',
      },
    },
    samples: {
      bad: [
        { description: 'an app container image without a tag', edit: { at: 'first-container', change: { use: 'image', with: { tag: null, digest: null } } } },
        { description: 'an init container image without a tag', edit: { at: 'first-init-container', change: { use: 'image', with: { tag: null, digest: null } } } },
      ],
    },
  },
  {
    id: 'image-digest-required',
    title: 'Images pinned by digest',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['images must be pinned by digest', 'require sha256 image digests', 'container images must reference a digest'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { any: [{ mentions: [{ words: 'digest-words' }] }, { all: [{ mentions: [{ re: '\\bpin(s|ned|ning)?\\b' }] }, { mentions: [{ words: 'image-words' }] }] }] },
          { not: { mentions: [{ words: 'pull-policy-words' }, { words: 'tag-or-digest' }] } },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'container-rule',
      with: {
        name: 'image-digest-required',
        description: 'A tag can be moved to another image; a digest cannot. Pinning by digest makes what runs exactly what was reviewed and scanned.',
        severity: 'medium',
        containers: 'all',
        predicate: "c.?image.orValue('').matches('@(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$')",
        message: 'images must be pinned by digest (@sha256:...)',
        remediation:
          'Reference the image by digest on every container, init container and ephemeral container: image: registry.example.com/app:1.4.2@sha256:<64 hex digits> (the tag may stay for readability; the digest decides what is pulled).',
        show: 'image',
      },
    },
    samples: {
      good: [{ at: 'every-container', change: { use: 'image', with: { 'default-digest': 'sha256:4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a4f3c2b1a', missing: null } } }],
      bad: [
        { description: 'an app container image with a tag but no digest', edit: { at: 'first-container', change: { use: 'image', with: { 'default-tag': '1.4.2', digest: null } } } },
        { description: 'an init container image with a truncated digest', edit: { at: 'first-init-container', change: { use: 'image', with: { digest: 'sha256:4f3c2b1a' } } } },
      ],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Registries: an allow list, or a deny list when the clause forbids without "only"/"except"
  {
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
    recognize: {
      when: {
        all: [
          { not: { mentions: [{ words: 'pull-policy-words' }] } },
          { mentions: [{ words: 'registry-words' }, { words: 'image-words' }, { re: '\\bpull(s|ed|ing)?\\b' }] },
          { any: [{ reads: 'registries' }, { mentions: [{ words: 'registry-words' }] }] },
          { not: { any: [{ mentions: [{ words: 'registry-deny-words' }] }, { all: [{ negated: true }, { not: { mentions: [{ words: 'only-words' }] } }] }] } },
        ],
      },
      score: [{ when: { reads: 'registries' }, score: 3 }, { score: 2 }],
      parameters: { registries: { use: 'registries' } },
    },
    values: [{ use: 'image-cel' }, { use: 'registries', with: { otherwise: 'registry.acme.io' } }, { use: 'registry-look-alikes' }],
    rule: {
      use: 'container-rule',
      with: {
        name: 'images-only-from-{{registries}}',
        description:
          'Images from elsewhere have not been scanned or signed by us. Registries match exactly: the host (and port, and path prefix when given) must be the one allowed, so look-alike hosts (registry.acme.io.evil.com) do not pass; images without a registry are from docker.io.',
        severity: 'high',
        containers: 'all',
        predicate: "cel.bind(i, c.?image.orValue(''), i != '' && cel.bind(repo, {{image-repository}}, {{registries-cel}}))",
        message: 'images must come from {{registries|or}}',
        remediation:
          'Set image on every container, init container and ephemeral container to an image under {{registries|or}} (mirror the image there first if needed); an image with no registry part, like nginx, comes from docker.io.',
        show: 'image',
      },
    },
    samples: {
      good: [{ at: 'every-container', change: { use: 'move-image', with: { into: '{{registries}}', under: '{{sample-registry}}' } } }],
      bad: [
        {
          when: { given: 'look-alike' },
          description: 'an app container image from a look-alike registry ({{look-alike}})',
          edit: { at: 'first-container', set: { image: '{{look-alike}}' } },
        },
        {
          when: { given: 'elsewhere' },
          description: 'an init container image from another registry ({{elsewhere}})',
          edit: { at: 'first-init-container', set: { image: '{{elsewhere}}' } },
        },
      ],
    },
  },
  {
    id: 'image-registry-denied',
    title: 'No images from denied registries',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['no images from docker.io', 'block images pulled from docker.io or quay.io', 'containers must not use images from Docker Hub'],
    parameters: [{ name: 'registries', question: 'which registries are images not allowed to come from?', required: true, example: ['docker.io'] }],
    recognize: {
      when: {
        all: [
          { not: { mentions: [{ words: 'pull-policy-words' }] } },
          { mentions: [{ words: 'registry-words' }, { words: 'image-words' }, { re: '\\bpull(s|ed|ing)?\\b' }] },
          { any: [{ reads: 'registries' }, { mentions: [{ words: 'registry-words' }] }] },
          { any: [{ mentions: [{ words: 'registry-deny-words' }] }, { all: [{ negated: true }, { not: { mentions: [{ words: 'only-words' }] } }] }] },
        ],
      },
      score: [{ when: { reads: 'registries' }, score: 3 }, { score: 2 }],
      parameters: { registries: { use: 'registries' } },
    },
    values: [
      { use: 'image-cel' },
      { use: 'registries', with: { otherwise: 'docker.io' } },
      { use: 'choose', with: { by: 'sample-registry', cases: { 'docker.io': { 'docker-hub': true } }, otherwise: { 'docker-hub': false } } },
    ],
    rule: {
      use: 'container-rule',
      with: {
        name: 'no-images-from-{{registries}}',
        description: 'Images from {{registries}} are not allowed. Registries match exactly on the host (and path prefix when given); images without a registry are from docker.io.',
        severity: 'high',
        containers: 'all',
        predicate: "cel.bind(i, c.?image.orValue(''), i == '' || cel.bind(repo, {{image-repository}}, !{{registries-cel}}))",
        message: 'images must not come from {{registries|or}}',
        remediation:
          'Set image on every container, init container and ephemeral container to an image outside {{registries}} (mirror it to an approved registry); an image with no registry part, like nginx, counts as docker.io.',
        show: 'image',
      },
    },
    samples: {
      good: [{ at: 'every-container', change: { use: 'move-image', with: { 'out-of': '{{registries}}' } } }],
      bad: [
        {
          when: { given: 'docker-hub' },
          description: 'an app container image with no registry part (docker.io)',
          edit: { at: 'first-container', change: { use: 'image', with: { host: null } } },
        },
        {
          description: 'an init container image from {{sample-registry}}',
          edit: { at: 'first-init-container', change: { use: 'image', with: { under: '{{sample-registry}}', missing: 'registry.example.com/payments/migrate:1.4.2' } } },
        },
      ],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Resources
  {
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
    recognize: {
      when: {
        all: [
          // "every resource needs a team label" is about objects: only "resources" of containers are these fields.
          {
            any: [
              { mentions: [{ words: 'resource-field-words' }, { re: '\\bresource[\\s-]*(requests?|limits?)\\b|\\bcompute[\\s-]*resources?\\b' }] },
              { all: [{ mentions: [{ re: '\\bresources\\b' }] }, { mentions: [{ re: '\\b(containers?|pods?|workloads?)\\b' }] }] },
            ],
          },
          // "requests" and "limits" alone are ordinary words; with cpu, memory, resources or containers they are these fields.
          { mentions: [{ words: 'resource-name-words' }, { re: '\\bresource[\\s-]*(requests?|limits?)\\b|\\bcompute[\\s-]*resources?\\b' }, { re: '\\b(containers?|pods?|workloads?)\\b' }] },
          // A bare "memory requests" is a list item ("memory requests and limits at most 4Gi"): it joins its neighbour.
          { mentions: [{ re: '\\b(requir\\w*|need\\w*|must|should|set|declare\\w*|define\\w*|specif\\w*|have|has|mandatory|enforce\\w*|without|missing)\\b' }] },
          // A bound is the other requirement; "no cpu limits" is not a requirement.
          { not: { any: [{ test: 'quantities' }, { test: 'comparisons' }] } },
          { any: [{ negated: false }, { mentions: [{ re: '\\b(without|missing|unset|lacking)\\b' }] }] },
        ],
      },
      score: 3,
      parameters: {
        resources: { use: 'resource-words', with: { of: 'resources', otherwise: ['cpu', 'memory'] } },
        fields: { use: 'resource-words', with: { of: 'fields', otherwise: ['requests', 'limits'] } },
      },
    },
    values: [{ use: 'required-resources', with: { defaults: { cpu: '100m', memory: '128Mi', 'ephemeral-storage': '1Gi' } } }],
    rule: {
      use: 'container-rule',
      with: {
        name: '{{resources}}-{{fields}}-required',
        description:
          'Every container and init container must declare {{resources|and}} {{fields|and}}: without requests the scheduler packs nodes blindly, without limits one container can starve its neighbours.',
        severity: 'medium',
        // Kubernetes forbids resources on ephemeral containers.
        containers: 'app-and-init',
        predicate: '{{resources-cel}}',
        message: 'containers must set {{resources|and}} {{fields|and}}',
        remediation:
          'Set {{resource-paths}} on every container and init container (for example resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {cpu: 500m, memory: 256Mi}}).',
      },
    },
    samples: {
      good: [{ at: 'app-and-init-containers', change: { use: 'fill-missing', with: { set: '{{resource-defaults}}' } } }],
      bad: [
        {
          description: 'an app container without resources.{{first-field}}.{{first-resource}}',
          edit: { at: 'first-container', remove: ['resources.{{first-field}}.{{first-resource}}'] },
        },
        {
          description: 'an init container without resources.{{last-field}}.{{last-resource}}',
          edit: { at: 'first-init-container', remove: ['resources.{{last-field}}.{{last-resource}}'] },
        },
        { description: 'an app container without any resources', edit: { at: 'first-container', remove: ['resources'] } },
      ],
    },
  },
  {
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
    recognize: {
      when: {
        all: [
          { any: [{ test: 'resource-quantities' }, { test: 'comparisons' }] },
          // A unit alone ("10m") is not enough: minutes, meters. A resource word or a byte unit is.
          { any: [{ mentions: [{ words: 'resource-name-words' }] }, { all: [{ test: 'memory-quantities' }, { mentions: [{ words: 'resource-field-words' }] }] }] },
          { any: [{ mentions: [{ words: 'resource-field-words' }, { re: '\\bresources?\\b' }, { re: '\\bcontainers?\\b' }] }, { test: 'comparisons' }] },
        ],
      },
      score: 3,
      parameters: { bounds: { use: 'resource-bounds' } },
    },
    values: [{ use: 'resource-bounds' }],
    rule: {
      use: 'container-rule',
      with: {
        name: '{{bounds-name}}',
        description:
          'Keeps container resources within {{bounds-text}}. Quantities compare by value (0.5 = 500m; 1Gi > 1G). A bounded field that is missing fails: an unset limit is unbounded, an unset request is whatever the scheduler assumes.',
        severity: 'medium',
        // Kubernetes forbids resources on ephemeral containers.
        containers: 'app-and-init',
        predicate: '{{bounds-cel}}',
        message: 'container resources must stay within {{bounds-text}}',
        remediation: 'Set {{bounded-paths}} on every container and init container within {{bounds-text}}; a missing value fails.',
      },
    },
    samples: { use: 'resource-bounds' },
  },

  // -------------------------------------------------------------------------------------------
  // Probes
  {
    id: 'container-probes-required',
    title: 'Liveness, readiness or startup probes required',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['containers need liveness and readiness probes', 'require readiness probes', 'every container must define a startup probe', 'pods must have health checks'],
    parameters: [{ name: 'probes', question: 'which probes: liveness, readiness, startup?', required: false, example: ['liveness', 'readiness'] }],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\bliveness\\b|livenessprobe' }, { re: '\\breadiness\\b|readinessprobe' }, { re: 'startupprobe' }, { re: '\\bprobes?\\b|\\bhealth[\\s-]*checks?\\b|\\bhealthchecks?\\b' }] },
          { any: [{ negated: false }, { mentions: [{ re: '\\b(without|missing|lacking)\\b' }] }] },
        ],
      },
      score: 3,
      parameters: { probes: { use: 'probes', with: { otherwise: ['liveness', 'readiness'] } } },
    },
    values: [{ use: 'probes', with: { probe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 }, startup: { failureThreshold: 30 } } }],
    rule: {
      use: 'container-rule',
      with: {
        name: '{{probe-names}}-probes-required',
        description:
          'Every app container must define {{probe-fields|and}}, so Kubernetes restarts it when stuck and routes traffic only when it is ready. Init and ephemeral containers cannot have probes; pods of Jobs and CronJobs run to completion and are not judged.',
        severity: 'medium',
        containers: 'app',
        predicate: '{{probes-cel}}',
        message: 'containers must define {{probe-fields|and}}',
        remediation: 'Add {{probe-fields|and}} (httpGet, tcpSocket, grpc or exec) to every container in spec.containers.',
        // Controllers whose pods run to completion are left out: a probe requirement makes no sense there.
        controllers: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController'],
        conditions: [{ name: 'not-a-job-pod', expression: "!object.metadata.?ownerReferences.orValue([]).exists(o, o.?kind.orValue('') == 'Job')" }],
      },
    },
    samples: {
      good: [{ at: 'app-containers', change: { use: 'fill-missing', with: { set: '{{probe-defaults}}' } } }],
      bad: [{ each: 'probe-fields', description: 'an app container without {{item}}', edit: { at: 'first-container', remove: ['{{item}}'] } }],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Image pull policy
  {
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
    recognize: {
      when: {
        any: [
          { mentions: [{ words: 'pull-policy-words' }] },
          // "always pull from registry.acme.io" is about the registry.
          { all: [{ mentions: [{ words: 'always-pull' }] }, { not: { reads: 'registries' } }] },
        ],
      },
      score: 3,
      parameters: { policy: { use: 'pull-policy' }, forbidden: { use: 'pull-policy-forbidden' }, onlyLatest: { holds: { mentions: [{ words: 'latest-tag' }] } } },
    },
    values: [
      { use: 'image-cel' },
      // No policy, or one Kubernetes does not know, is Always.
      { use: 'choose', with: { by: 'policy', cases: { Always: {}, IfNotPresent: {}, Never: {} }, otherwise: { policy: 'Always' } } },
      {
        use: 'choose',
        with: {
          by: 'policy',
          cases: {
            Always: { other: 'IfNotPresent', others: 'IfNotPresent or Never', why: ", so every start checks the registry (and its credentials) rather than a node's cache" },
            IfNotPresent: { other: 'Always', others: 'Always or Never', why: '' },
            Never: { other: 'IfNotPresent', others: 'Always or IfNotPresent', why: '' },
          },
        },
      },
      {
        use: 'choose',
        with: {
          by: 'onlyLatest',
          cases: {
            true: {
              scope: ' whose image runs :latest (tagged latest or untagged)',
              'for-latest': 'for-latest',
              'latest-guard': "!cel.bind(i, c.?image.orValue(''), {{image-runs-latest}}) || ",
              shown: 'image',
            },
          },
          otherwise: { scope: '', 'for-latest': '', 'latest-guard': '', shown: 'name' },
        },
      },
    ],
    rule: [
      {
        when: { given: 'forbidden' },
        use: 'container-rule',
        with: {
          name: 'image-pull-policy-not-{{policy}}-{{for-latest}}',
          description: 'imagePullPolicy {{policy}} is not allowed on containers{{scope}}. A missing imagePullPolicy passes: Kubernetes defaults it to Always or IfNotPresent.',
          severity: 'low',
          containers: 'all',
          predicate: "{{latest-guard}}c.?imagePullPolicy.orValue('') != {{policy|cel}}",
          message: 'imagePullPolicy must not be {{policy}}',
          remediation: 'Set imagePullPolicy to {{others}} (or remove it) on every container, init container and ephemeral container{{scope}}.',
          show: '{{shown}}',
        },
      },
      {
        use: 'container-rule',
        with: {
          name: 'image-pull-policy-{{policy}}-{{for-latest}}',
          description: 'Containers{{scope}} must set imagePullPolicy: {{policy}}{{why}}. A missing imagePullPolicy fails: the rule asks for it explicitly.',
          severity: 'low',
          containers: 'all',
          predicate: "{{latest-guard}}c.?imagePullPolicy.orValue('') == {{policy|cel}}",
          message: 'imagePullPolicy must be {{policy}}{{scope}}',
          remediation: 'Set imagePullPolicy: {{policy}} on every container, init container and ephemeral container{{scope}}.',
          show: '{{shown}}',
        },
      },
    ],
    samples: [
      {
        when: { given: ['forbidden', 'onlyLatest'] },
        samples: {
          good: [{ at: 'containers-running-latest', change: { use: 'replace-listed', with: { path: 'imagePullPolicy', listed: ['{{policy}}'], by: ['{{other}}'] } } }],
          bad: [
            {
              description: 'an app container with imagePullPolicy: {{policy}} and a :latest image',
              edit: { at: 'first-container', change: { use: 'image', with: { tag: 'latest', digest: null } }, set: { imagePullPolicy: '{{policy}}' } },
            },
          ],
        },
      },
      {
        when: { given: 'forbidden' },
        samples: {
          good: [{ at: 'every-container', change: { use: 'replace-listed', with: { path: 'imagePullPolicy', listed: ['{{policy}}'], by: ['{{other}}'] } } }],
          bad: [{ description: 'an app container with imagePullPolicy: {{policy}}', edit: { at: 'first-container', set: { imagePullPolicy: '{{policy}}' } } }],
        },
      },
      {
        when: { given: 'onlyLatest' },
        samples: {
          good: [{ at: 'containers-running-latest', set: { imagePullPolicy: '{{policy}}' } }],
          bad: [
            {
              description: 'an app container with a :latest image and imagePullPolicy: {{other}}',
              edit: { at: 'first-container', change: { use: 'image', with: { tag: 'latest', digest: null } }, set: { imagePullPolicy: '{{other}}' } },
            },
            {
              description: 'an init container with an untagged image and no imagePullPolicy',
              edit: { at: 'first-init-container', change: { use: 'image', with: { tag: null, digest: null } }, remove: ['imagePullPolicy'] },
            },
          ],
        },
      },
      {
        samples: {
          good: [{ at: 'every-container', set: { imagePullPolicy: '{{policy}}' } }],
          bad: [
            { description: 'an app container with imagePullPolicy: {{other}}', edit: { at: 'first-container', set: { imagePullPolicy: '{{other}}' } } },
            { description: 'an init container without imagePullPolicy', edit: { at: 'first-init-container', remove: ['imagePullPolicy'] } },
          ],
        },
      },
    ],
  },

  // -------------------------------------------------------------------------------------------
  // Service account token automount
  {
    id: 'service-account-token-automount-disabled',
    title: 'Service account tokens not automounted',
    platform: 'kubernetes',
    category: 'workload',
    // Authors say "service account token", which names the ServiceAccount kind: the rule judges both.
    kinds: ['Pod', 'ServiceAccount'],
    phrasings: ['automountServiceAccountToken must be false', 'do not automount service account tokens', 'pods must disable service account token automounting'],
    parameters: [],
    recognize: {
      when: {
        any: [
          { mentions: [{ re: 'auto[\\s-]*mount' }] },
          { all: [{ mentions: [{ re: '\\b(service[\\s-]*account|sa)[\\s-]*tokens?\\b|\\bapi tokens?\\b' }] }, { mentions: [{ re: '\\bmount(s|ed|ing)?\\b' }] }] },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'pod-rule',
      with: {
        name: 'no-service-account-token-automount',
        description:
          'A pod that does not call the Kubernetes API needs no service account token; an automounted one is a credential any compromised container can use. The pod spec must say so itself: when it is silent, the ServiceAccount decides, which admission of the pod cannot see.',
        severity: 'medium',
        expression:
          "object.kind == 'ServiceAccount' ? object.?automountServiceAccountToken.orValue(true) == false : object.spec.?automountServiceAccountToken.orValue(true) == false",
        message: 'automountServiceAccountToken must be false',
        remediation:
          "Set spec.automountServiceAccountToken: false in the pod spec (spec.template.spec for controllers), and automountServiceAccountToken: false on ServiceAccounts. The pod-level field wins over the ServiceAccount's; a pod that does need API access can mount a projected serviceAccountToken volume with a short expiry and an audience.",
        kinds: ['Pod', 'ServiceAccount'],
      },
    },
    samples: {
      bad: [
        { description: 'automountServiceAccountToken: true', edit: { at: 'service-account-and-pod-specs', set: { automountServiceAccountToken: true } } },
        { description: 'no automountServiceAccountToken (the default mounts the token)', edit: { at: 'service-account-and-pod-specs', remove: ['automountServiceAccountToken'] } },
      ],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Read-only root filesystem
  {
    id: 'read-only-root-filesystem',
    title: 'Read-only root filesystem',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['containers must use a read-only root filesystem', 'require readOnlyRootFilesystem', 'root filesystems must be read only'],
    parameters: [],
    recognize: {
      when: {
        any: [
          { mentions: [{ re: 'readonlyrootfilesystem' }] },
          {
            all: [
              { mentions: [{ re: '\\bread[\\s-]*only\\b|\\bimmutable\\b|\\bwrite[\\s-]*protected\\b' }] },
              { mentions: [{ re: '\\b(root[\\s-]*)?file[\\s-]*systems?\\b|\\broot[\\s-]*fs\\b|\\brootfs\\b' }] },
            ],
          },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'container-rule',
      with: {
        name: 'read-only-root-filesystem',
        description: "A read-only root filesystem stops an attacker from dropping binaries or changing the image's files; the app writes only to mounted volumes.",
        severity: 'medium',
        containers: 'all',
        predicate: 'c.?securityContext.?readOnlyRootFilesystem.orValue(false) == true',
        message: 'containers must have securityContext.readOnlyRootFilesystem: true',
        remediation:
          'Set securityContext.readOnlyRootFilesystem: true on every container, init container and ephemeral container; mount an emptyDir volume where the app needs to write (/tmp, caches).',
      },
    },
    samples: {
      good: [{ at: 'every-container', set: { 'securityContext.readOnlyRootFilesystem': true } }],
      bad: [
        { description: 'an app container with readOnlyRootFilesystem: false', edit: { at: 'first-container', set: { 'securityContext.readOnlyRootFilesystem': false } } },
        { description: 'an init container without readOnlyRootFilesystem', edit: { at: 'first-init-container', remove: ['securityContext.readOnlyRootFilesystem'] } },
      ],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Credentials in environment variables: from Secrets rather than literal values ("no
  // plain-text passwords in env", any clause naming secretKeyRef as the way), or not in env at all
  // ("credentials must not be passed as environment variables", "mount them as files")
  {
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
    recognize: {
      when: {
        all: [
          { mentions: [{ words: 'env-words' }, { words: 'secret-ref-words' }] },
          { mentions: [{ words: 'secret-ref-words' }, { words: 'credential-words' }] },
          { any: [{ mentions: [{ words: 'literal-words' }] }, { all: [{ mentions: [{ words: 'secret-ref-words' }] }, { negated: false }] }] },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'container-rule',
      with: {
        name: 'credential-env-from-secret-key-refs',
        description:
          'A credential written as a literal env value lives in the manifest, in git and in every copy of the object. Env vars whose name ends like a credential (PASSWORD, SECRET, TOKEN, API_KEY, PRIVATE_KEY, ACCESS_KEY, CREDENTIALS, any case) must take their value from valueFrom.secretKeyRef; names like DB_PASSWORD_FILE (a path) are not credentials.',
        severity: 'high',
        containers: 'all',
        predicate: `c.?env.orValue([]).all(e, !${CREDENTIAL_NAME} || e.?valueFrom.?secretKeyRef.hasValue())`,
        message: 'env vars holding credentials must come from valueFrom.secretKeyRef',
        remediation:
          'Move the value into a Secret and replace env[].value with env[].valueFrom.secretKeyRef {name, key} on every container, init container and ephemeral container (or mount the Secret as a file and pass its path, e.g. DB_PASSWORD_FILE).',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with env DB_PASSWORD as a literal value', edit: { at: 'first-container', append: { to: 'env', item: { name: 'DB_PASSWORD', value: 'hunter2' } } } },
        {
          description: 'an init container with env api_token from a ConfigMap',
          edit: { at: 'first-init-container', append: { to: 'env', item: { name: 'api_token', valueFrom: { configMapKeyRef: { name: 'web-config', key: 'token' } } } } },
        },
      ],
    },
  },
  {
    id: 'env-no-secrets',
    title: 'No credentials in environment variables',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['no secretKeyRef env vars', 'credentials must not be passed as environment variables', 'mount credentials as files, not environment variables'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { mentions: [{ words: 'env-words' }, { words: 'secret-ref-words' }] },
          { mentions: [{ words: 'secret-ref-words' }, { words: 'credential-words' }] },
          { not: { any: [{ mentions: [{ words: 'literal-words' }] }, { all: [{ mentions: [{ words: 'secret-ref-words' }] }, { negated: false }] }] } },
          { any: [{ negated: true }, { mentions: [{ re: '\\bas files\\b|\\bmounted files?\\b|\\bvolumes?\\b' }] }] },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'container-rule',
      with: {
        name: 'no-credentials-in-env',
        description:
          'Environment variables leak: into crash dumps, child processes, /proc and logs of "print the config". Credentials must reach the container as files from a Secret volume instead: no env[].valueFrom.secretKeyRef, no envFrom[].secretRef, and no env var whose name ends like a credential (PASSWORD, SECRET, TOKEN, API_KEY...), whatever its source.',
        severity: 'medium',
        containers: 'all',
        predicate: `c.?env.orValue([]).all(e, !e.?valueFrom.?secretKeyRef.hasValue() && !${CREDENTIAL_NAME}) && c.?envFrom.orValue([]).all(f, !f.?secretRef.hasValue())`,
        message: 'credentials must not be passed in environment variables',
        remediation:
          'Remove env[].valueFrom.secretKeyRef and envFrom[].secretRef from every container, init container and ephemeral container; mount the Secret as a volume (volumes[].secret plus volumeMounts, readOnly) and point the app at the file, e.g. with DB_PASSWORD_FILE=/var/run/secrets/db/password.',
      },
    },
    samples: {
      bad: [
        {
          description: 'an app container with env from valueFrom.secretKeyRef',
          edit: { at: 'first-container', append: { to: 'env', item: { name: 'DB_URL', valueFrom: { secretKeyRef: { name: 'web-secret', key: 'url' } } } } },
        },
        { description: 'an init container with envFrom a Secret', edit: { at: 'first-init-container', set: { envFrom: [{ secretRef: { name: 'web-secret' } }] } } },
        { description: 'an app container with a literal GITHUB_TOKEN', edit: { at: 'first-container', append: { to: 'env', item: { name: 'GITHUB_TOKEN', value: 'ghp_example' } } } },
      ],
    },
  },

  // -------------------------------------------------------------------------------------------
  // Priority classes: one required, one of a list, or none of a list
  {
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
    recognize: {
      when: { mentions: [{ words: 'priority-class-words' }] },
      score: 3,
      // "must not run without a priority class" names no class: it is the requirement.
      parameters: { allowed: { use: 'priority-classes', with: { listed: 'allowed' } }, forbidden: { use: 'priority-classes', with: { listed: 'forbidden' } } },
    },
    values: [{ use: 'choose', with: { by: 'forbidden', cases: { 1: { 'is-are': 'is', 'it-them': 'it' } }, otherwise: { 'is-are': 'are', 'it-them': 'one of them' } } }],
    rule: [
      {
        when: { given: 'forbidden' },
        use: 'pod-rule',
        with: {
          name: 'priority-class-not-{{forbidden}}',
          description: '{{forbidden}} {{is-are}} reserved: a workload with {{it-them}} preempts everything else on its nodes. A pod without a priorityClassName passes.',
          severity: 'medium',
          expression: "!(object.spec.?priorityClassName.orValue('') in {{forbidden|cel}})",
          message: 'priorityClassName must not be {{forbidden|or}}',
          remediation: 'Set spec.priorityClassName (spec.template.spec for controllers) to a class other than {{forbidden}}, or remove it.',
        },
      },
      {
        when: { given: 'allowed' },
        use: 'pod-rule',
        with: {
          name: 'priority-class-in-{{allowed}}',
          description: PRIORITY_CLASS_WHY,
          severity: 'low',
          expression: "object.spec.?priorityClassName.orValue('') in {{allowed|cel}}",
          message: 'priorityClassName must be one of {{allowed}}',
          remediation: 'Set spec.priorityClassName (spec.template.spec for controllers) to one of {{allowed}}.',
        },
      },
      {
        use: 'pod-rule',
        with: {
          name: 'priority-class-required',
          description: PRIORITY_CLASS_WHY,
          severity: 'low',
          expression: "object.spec.?priorityClassName.orValue('') != ''",
          message: 'pods must set priorityClassName',
          remediation: "Set spec.priorityClassName (spec.template.spec for controllers) to one of the cluster's PriorityClasses.",
        },
      },
    ],
    samples: [
      {
        when: { given: 'forbidden' },
        samples: {
          good: [
            {
              at: 'pod-spec',
              change: { use: 'replace-listed', with: { path: 'priorityClassName', listed: '{{forbidden}}', by: ['standard', 'workload-default', 'normal-priority'], otherwise: 'workload-default' } },
            },
          ],
          bad: [{ each: 'forbidden', description: 'priorityClassName: {{item}}', edit: { at: 'pod-spec', set: { priorityClassName: '{{item}}' } } }],
        },
      },
      {
        when: { given: 'allowed' },
        samples: {
          good: [{ at: 'pod-spec', set: { priorityClassName: '{{allowed.0}}' } }],
          bad: [
            { description: 'no priorityClassName', edit: { at: 'pod-spec', remove: ['priorityClassName'] } },
            { description: 'priorityClassName: unlisted-priority', edit: { at: 'pod-spec', set: { priorityClassName: 'unlisted-priority' } } },
          ],
        },
      },
      {
        samples: {
          good: [{ at: 'pod-spec', set: { priorityClassName: 'standard' } }],
          bad: [
            { description: 'no priorityClassName', edit: { at: 'pod-spec', remove: ['priorityClassName'] } },
            { description: 'an empty priorityClassName', edit: { at: 'pod-spec', set: { priorityClassName: '' } } },
          ],
        },
      },
    ],
  },

  // -------------------------------------------------------------------------------------------
  // Container ports
  {
    id: 'container-port-denied',
    title: 'No containers listening on given ports',
    platform: 'kubernetes',
    category: 'workload',
    kinds: ['Pod'],
    phrasings: ['no containers listening on port 22', 'containers must not expose port 3389', 'disallow container ports 30000-32767'],
    parameters: [{ name: 'ports', question: 'which ports or port ranges must containers not listen on?', required: true, example: ['22'] }],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\bports?\\b|containerports?' }] },
          // Host ports are Pod Security's; node ports and service ports are the Service's.
          { not: { mentions: [{ re: '\\bhost[\\s-]*ports?\\b|\\bnode[\\s-]*ports?\\b|\\bservices?\\b|\\bingress' }] } },
          { mentions: [{ re: '\\bcontainers?\\b|containerports?|\\blisten(s|ing)?\\b|\\bexpos(e|es|ed|ing)\\b' }] },
          { negated: true },
        ],
      },
      score: [{ when: { reads: 'ports' }, score: 3 }, { score: 2 }],
      parameters: { ports: { use: 'ports' } },
    },
    values: [{ use: 'ports' }, { use: 'choose', with: { by: 'one-port', cases: { true: { 'port-word': 'port' } }, otherwise: { 'port-word': 'ports' } } }],
    rule: {
      use: 'container-rule',
      with: {
        name: 'no-container-port-{{port-list}}',
        description:
          'Containers must not declare {{port-word}} {{port-list}} (ports[].containerPort): a service listening there (sshd, RDP, the Docker API...) is a way in that the workload should not need.',
        severity: 'medium',
        // Kubernetes forbids ports on ephemeral containers.
        containers: 'app-and-init',
        predicate: '{{ports-cel}}',
        message: 'containers must not listen on {{port-word}} {{port-list}}',
        remediation:
          'Remove ports[].containerPort {{port-list}} from every container and init container, and stop the process listening there (for shell access use kubectl exec or an ephemeral debug container instead of sshd).',
      },
    },
    samples: {
      good: [{ at: 'app-and-init-containers', change: { use: 'free-ports', with: { ports: '{{ports}}', to: '{{free-port}}' } } }],
      bad: [
        {
          description: 'an app container with containerPort {{first-port}}',
          edit: { at: 'first-container', append: { to: 'ports', item: { name: 'denied', containerPort: '{{first-port}}', protocol: 'TCP' } } },
        },
        { description: 'an init container with containerPort {{last-port}}', edit: { at: 'first-init-container', set: { ports: [{ containerPort: '{{last-port}}', protocol: 'TCP' }] } } },
      ],
    },
  },
]
