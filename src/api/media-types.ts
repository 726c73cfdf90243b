export const JSON_MEDIA_TYPES: readonly string[] = ['application/json']
export const YAML_MEDIA_TYPES: readonly string[] = ['application/x-yaml', 'application/yaml', 'text/yaml']

/** What a route takes: JSON everywhere, YAML too where the route says `config.acceptsYaml`. */
export function acceptedMediaTypes(acceptsYaml: boolean): readonly string[] {
  return acceptsYaml ? [...JSON_MEDIA_TYPES, ...YAML_MEDIA_TYPES] : JSON_MEDIA_TYPES
}
