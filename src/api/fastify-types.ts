import type { BodyFormat } from './content-types.js'
import type { Principal, RouteScope } from './principal.js'

/*
 * What the framework adds to fastify's types. Imported by build-app.ts, so every file that
 * uses fastify in this project sees it.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route (registration fails without it); see RouteScope. */
    scope?: RouteScope
    /** The route also takes YAML bodies (application/x-yaml, application/yaml, text/yaml). */
    acceptsYaml?: boolean
    /**
     * Top-level body fields that may hold any text, U+0000 and unpaired surrogates included: the
     * document being evaluated, audited safely as sent. Everywhere else they are a 400.
     */
    freeTextBodyFields?: readonly string[]
    /** Not part of the REST API (the console's pages and assets): left out of the OpenAPI document. */
    outsideApi?: boolean
  }

  interface FastifySchema {
    /** Short title of the operation in the OpenAPI document. */
    summary?: string
    description?: string
    tags?: readonly string[]
    operationId?: string
  }

  interface FastifyRequest {
    /** The caller; ANONYMOUS on public routes. Set before the body is read. */
    principal: Principal
    /** Which format the body arrived in; `json` when there was no body. */
    bodyFormat: BodyFormat
    /** The body exactly as sent (audits store it); '' when there was no body. */
    rawBody: string
  }
}

export {}
