import type { NamedRequirement } from '../named-requirement.js'
import type { TemplateParameter } from '../rule-template.js'

/**
 * Rules on one field of any JSON document, addressed by a dotted path (`server.port`,
 * `database.tls.enabled`, `items[0].name`); the reading of clauses, the values in `{{braces}}` and
 * the conditions ("in prod configs", "when environment is prod") are vocabulary/generic-json.ts's.
 *
 * Semantics, the same for every requirement:
 * - A positive requirement ("must be X", "must match", "between", "is required") fails when the
 *   field is missing or null: an absent value is not a compliant one.
 * - A prohibition ("must not be X", "must not match", "must not be set") passes when the field is
 *   missing or null.
 * - Values are typed as written: numbers compare as numbers (8443 is not "8443"), true/false are
 *   booleans, anything else (and anything quoted) is a string.
 * - Missing intermediate objects never raise errors: paths are read with CEL optionals.
 * - Conditions skip the rule (match.conditions) rather than pass it, so reports say the rule did
 *   not apply.
 */

/**
 * Below any Kubernetes template that takes the clause (1 and above, after the generic -0.5),
 * above a Kubernetes template's sub-threshold guess. Only one generic entry ever reads a clause,
 * so they never tie with each other.
 */
const SCORE = 1.25

const CONDITION_PARAMETERS: TemplateParameter[] = [
  { name: 'environment', question: 'in which environment does the rule apply (matched against the top-level environment or env field)?', required: false, example: 'prod' },
  { name: 'whenField', question: 'which field decides whether the rule applies?', required: false, example: 'environment' },
  { name: 'whenValue', question: 'which value of that field makes the rule apply?', required: false, example: 'prod' },
]

const FIELD_PARAMETER: TemplateParameter = { name: 'field', question: 'which field (a dotted path such as server.port)?', required: true, example: 'server.port' }
const NEGATE_PARAMETER: TemplateParameter = { name: 'negate', question: 'is the value forbidden rather than required?', required: false, example: false }

/** What a check found, after the message. */
const FOUND = "'found ' + {{found}}"

export const GENERIC_JSON_ENTRIES: readonly NamedRequirement[] = [
  {
    id: 'json-field-required',
    title: 'Field is required',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['field owner is required', 'config must have database.host', 'metadata.owner must be set', 'require fields owner and team', 'when environment is prod, backup.schedule is required'],
    parameters: [{ name: 'fields', question: 'which fields must be present (dotted paths such as database.host)?', required: true, example: ['database.host'] }, ...CONDITION_PARAMETERS],
    recognize: { use: 'json-field-reading', with: { check: 'required', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'required' } }],
    rule: {
      use: 'json-field-rule',
      with: {
        name: ['require', '{{fields}}'],
        description: 'Documents must set {{fields}} (a null value counts as missing).',
        severity: 'medium',
        variables: [{ name: 'missing', expression: '{{field-names}}.filter(f, {{missing-test}})' }],
        expression: 'size(variables.missing) == 0',
        message: 'required field{{s}} {{fields}} must be set',
        messageExpression: "'missing ' + variables.missing.join(', ')",
        remediation: 'Add {{fields-code}} to the document with a non-null value.',
      },
    },
    samples: { use: 'json-field-samples', with: { check: 'required' } },
  },
  {
    id: 'json-field-forbidden',
    title: 'Field must not be set',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['debug must not be set', 'no field password', 'documents must not contain secrets.apiKey', 'forbid the legacy.mode field'],
    parameters: [{ name: 'fields', question: 'which fields must be absent (dotted paths such as credentials.password)?', required: true, example: ['password'] }, ...CONDITION_PARAMETERS],
    recognize: { use: 'json-field-reading', with: { check: 'forbidden', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'forbidden' } }],
    rule: {
      use: 'json-field-rule',
      with: {
        name: ['forbid', '{{fields}}'],
        description: 'Documents must not set {{fields}} (a null value counts as not set).',
        severity: 'medium',
        variables: [{ name: 'present', expression: '{{field-names}}.filter(f, {{present-test}})' }],
        expression: 'size(variables.present) == 0',
        message: 'field{{s}} {{fields}} must not be set',
        messageExpression: "'found ' + variables.present.join(', ')",
        remediation: 'Remove {{fields-code}} from the document.',
      },
    },
    samples: { use: 'json-field-samples', with: { check: 'forbidden' } },
  },
  {
    id: 'json-field-equals',
    title: 'Field equals a value',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['logLevel must be info', 'region must equal eu-west-1', 'server.port must be 8443', 'logLevel must not be debug'],
    parameters: [
      FIELD_PARAMETER,
      { name: 'value', question: 'which value (numbers compare as numbers, quote a value to compare it as text)?', required: true, example: 'info' },
      NEGATE_PARAMETER,
      ...CONDITION_PARAMETERS,
    ],
    recognize: { use: 'json-field-reading', with: { check: 'equals', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'equals' } }],
    rule: [
      {
        when: { is: { negate: true } },
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'not', '{{value}}'],
          description: '{{field}} must not be {{shown}}; a missing {{field}} passes.',
          severity: 'medium',
          expression: '{{current}} != {{literal}}',
          message: '{{field}} must not be {{shown}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to a value other than {{shown}}, or remove it.',
        },
      },
      {
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'is', '{{value}}'],
          description: '{{field}} must be exactly {{shown}} ({{type}}); a missing {{field}} fails.',
          severity: 'medium',
          expression: '{{current}} == {{literal}}',
          message: '{{field}} must be {{shown}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to {{shown}}{{string-note}}.',
        },
      },
    ],
    samples: { use: 'json-field-samples', with: { check: 'equals' } },
  },
  {
    id: 'json-field-one-of',
    title: 'Field is one of the allowed values',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['environment must be one of dev, staging, prod', 'tier must be either gold or silver', 'the only allowed values for region are eu-west-1, eu-central-1', 'region may only be eu-west-1 or eu-central-1', 'logLevel must not be one of trace, debug'],
    parameters: [FIELD_PARAMETER, { name: 'values', question: 'which values are allowed?', required: true, example: ['dev', 'staging', 'prod'] }, NEGATE_PARAMETER, ...CONDITION_PARAMETERS],
    recognize: { use: 'json-field-reading', with: { check: 'one-of', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'one-of' } }],
    rule: [
      {
        when: { is: { negate: true } },
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'not-one-of', '{{values}}'],
          description: '{{field}} must not be any of {{values}}; a missing {{field}} passes.',
          severity: 'medium',
          expression: '!{{member}}',
          message: '{{field}} must not be one of {{values}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to a value other than {{values}}, or remove it.',
        },
      },
      {
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'one-of', '{{values}}'],
          description: '{{field}} must be one of {{values}}; a missing {{field}} fails.',
          severity: 'medium',
          expression: '{{member}}',
          message: '{{field}} must be one of {{values}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to one of {{values}}.',
        },
      },
    ],
    samples: { use: 'json-field-samples', with: { check: 'one-of' } },
  },
  {
    id: 'json-field-pattern',
    title: 'Field matches a pattern',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['version must match ^v[0-9]+$', 'image.tag should match the pattern ^[0-9]+\\.[0-9]+\\.[0-9]+$', 'name must not match ^tmp-'],
    parameters: [
      FIELD_PARAMETER,
      { name: 'pattern', question: 'which regular expression (RE2 syntax, matched anywhere unless anchored with ^ and $)?', required: true, example: '^v[0-9]+$' },
      NEGATE_PARAMETER,
      ...CONDITION_PARAMETERS,
    ],
    recognize: { use: 'json-field-reading', with: { check: 'pattern', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'pattern' } }],
    rule: [
      {
        when: { is: { negate: true } },
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'not-matching'],
          description: '{{field}} must not match {{pattern}}; a missing or non-string {{field}} passes.',
          severity: 'medium',
          expression: '!(type({{current}}) == string && {{current}}.matches({{pattern-literal}}))',
          message: '{{field}} must not match {{pattern}}',
          messageExpression: FOUND,
          remediation: 'Change `{{field}}` so that it does not match {{pattern}}, or remove it.',
        },
      },
      {
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'matching'],
          description: '{{field}} must be a string matching {{pattern}} (RE2, unanchored unless the pattern anchors it); a missing {{field}} fails.',
          severity: 'medium',
          expression: '(type({{current}}) == string && {{current}}.matches({{pattern-literal}}))',
          message: '{{field}} must match {{pattern}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to a string matching {{pattern}}.',
        },
      },
    ],
    samples: { use: 'json-field-samples', with: { check: 'pattern' } },
  },
  {
    id: 'json-field-range',
    title: 'Number field within bounds',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['replicas between 1 and 10', 'timeout at most 30', 'port must be greater than 1024', 'retries must not exceed 5'],
    parameters: [
      FIELD_PARAMETER,
      { name: 'minimum', question: 'what is the smallest allowed value?', required: false, example: 1 },
      { name: 'maximum', question: 'what is the largest allowed value?', required: false, example: 10 },
      { name: 'exclusiveMinimum', question: 'which value must the field be greater than?', required: false, example: 1024 },
      { name: 'exclusiveMaximum', question: 'which value must the field be less than?', required: false, example: 100 },
      ...CONDITION_PARAMETERS,
    ],
    recognize: { use: 'json-field-reading', with: { check: 'range', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'range' } }],
    rule: {
      use: 'json-field-rule',
      with: {
        name: ['{{field}}', 'range', '{{bounds}}'],
        description: '{{field}} must be a number {{limits}}; a missing or non-numeric {{field}} fails.',
        severity: 'medium',
        expression: 'type({{current}}) in [int, uint, double]{{bound-checks}}',
        message: '{{field}} must be a number {{limits}}',
        messageExpression: FOUND,
        remediation: 'Set `{{field}}` to a number {{limits}} (a JSON number, not a string).',
      },
    },
    samples: { use: 'json-field-samples', with: { check: 'range' } },
  },
  {
    id: 'json-field-boolean',
    title: 'Boolean field is true or false',
    platform: 'generic',
    category: 'generic',
    kinds: ['*'],
    phrasings: ['tls.enabled must be true', 'debug must be false', 'in prod configs, debug must be false', 'when environment is prod, tls.enabled must be true', 'debug must never be true', 'debug must be disabled'],
    parameters: [FIELD_PARAMETER, { name: 'value', question: 'must the field be true or false?', required: true, example: true }, NEGATE_PARAMETER, ...CONDITION_PARAMETERS],
    recognize: { use: 'json-field-reading', with: { check: 'boolean', score: SCORE } },
    values: [{ use: 'json-field', with: { check: 'boolean' } }],
    rule: [
      {
        when: { is: { negate: true } },
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'not', '{{value}}'],
          description: '{{field}} must not be {{value}}; a missing {{field}} passes.',
          severity: 'medium',
          expression: '{{current}} != {{value}}',
          message: '{{field}} must not be {{value}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to {{other}} or remove it.',
        },
      },
      {
        use: 'json-field-rule',
        with: {
          name: ['{{field}}', 'is', '{{value}}'],
          description: '{{field}} must be the boolean {{value}}; a missing {{field}} (or the string "{{value}}") fails.',
          severity: 'medium',
          expression: '{{current}} == {{value}}',
          message: '{{field}} must be {{value}}',
          messageExpression: FOUND,
          remediation: 'Set `{{field}}` to the JSON boolean {{value}}.',
        },
      },
    ],
    samples: { use: 'json-field-samples', with: { check: 'boolean' } },
  },
]
