import { PatchStrategy, setHeaderOptions, type AdmissionregistrationV1Api } from '@kubernetes/client-node'
import type { ControllerLogger } from './controller-logger.js'
import { describeKubeError, isNotFound } from './kube-errors.js'
import type { WebhookRule } from './webhook-rules.js'

export type WebhookSyncResult = 'updated' | 'unchanged' | 'missing'

/**
 * Keeps the `rules` of every webhook in one ValidatingWebhookConfiguration equal to what the
 * admission policies need. Only `rules` is written, by JSON patch, each guarded by a `test` of the
 * webhook's name so a configuration reordered meanwhile is not patched in the wrong place; the
 * clientConfig, caBundle, namespaceSelector and failurePolicy the chart (or cert-manager) manage
 * are never touched.
 */
export class WebhookConfigurationSync {
  readonly #api: AdmissionregistrationV1Api
  readonly #name: string
  readonly #logger: ControllerLogger
  #reportedMissing = false

  constructor(options: { api: AdmissionregistrationV1Api; name: string; logger: ControllerLogger }) {
    this.#api = options.api
    this.#name = options.name
    this.#logger = options.logger
  }

  async sync(desired: WebhookRule[]): Promise<WebhookSyncResult> {
    let configuration
    try {
      configuration = await this.#api.readValidatingWebhookConfiguration({ name: this.#name })
    } catch (error) {
      if (!isNotFound(error)) throw error
      // Without the chart (a local run against a cluster) there is nothing to keep in step.
      if (!this.#reportedMissing) this.#logger.warn({ webhookConfiguration: this.#name }, 'the ValidatingWebhookConfiguration does not exist; its rules are not kept in step')
      this.#reportedMissing = true
      return 'missing'
    }
    this.#reportedMissing = false
    const patch = (configuration.webhooks ?? []).flatMap((webhook, index) =>
      sameRules(webhook.rules ?? [], desired)
        ? []
        : [
            { op: 'test', path: `/webhooks/${index}/name`, value: webhook.name },
            { op: 'add', path: `/webhooks/${index}/rules`, value: desired },
          ],
    )
    if (patch.length === 0) return 'unchanged'
    try {
      await this.#api.patchValidatingWebhookConfiguration({ name: this.#name, body: patch }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch))
    } catch (error) {
      throw new Error(`patching the rules of ValidatingWebhookConfiguration "${this.#name}" failed: ${describeKubeError(error)}`, { cause: error })
    }
    this.#logger.info({ webhookConfiguration: this.#name, rules: desired.length }, 'webhook rules updated to follow the admission policies')
    return 'updated'
  }
}

/** Compares as the API server stores rules (scope defaulted to `*`), ignoring key order. */
function sameRules(current: readonly object[], desired: readonly WebhookRule[]): boolean {
  const normal = (rules: readonly object[]): string =>
    JSON.stringify(
      rules.map((rule) => {
        const { apiGroups, apiVersions, operations, resources, scope } = rule as Partial<WebhookRule>
        return [apiGroups ?? [], apiVersions ?? [], operations ?? [], resources ?? [], scope ?? '*']
      }),
    )
  return normal(current) === normal(desired)
}
