import { join, resolve } from 'node:path'
import { DEFAULT_DATA_DIR, type Config } from '../../config.js'
import type { AdmissionLogger } from '../admission-logger.js'
import type { CertificateFiles } from './certificate-reloader.js'
import { ensureGeneratedCertificate } from './generated-certificate.js'

export type WebhookTlsConfig = Pick<Config, 'tlsCertFile' | 'tlsKeyFile' | 'dataDir' | 'podNamespace'>

/**
 * The configured certificate and key, or else a self-signed pair under `<dataDir>/webhook-tls/`,
 * so a local run can always be tried: its path is logged, and its certificate is the caBundle a
 * hand-made ValidatingWebhookConfiguration needs.
 */
export async function webhookCertificateFiles(config: WebhookTlsConfig, serviceNames: readonly string[], logger: AdmissionLogger): Promise<CertificateFiles> {
  if (config.tlsCertFile && config.tlsKeyFile) return { certFile: config.tlsCertFile, keyFile: config.tlsKeyFile }
  // A throwaway store still needs somewhere a user can read the CA from, as for the admin token.
  const dataDir = config.dataDir === 'memory://' ? DEFAULT_DATA_DIR : config.dataDir
  const dir = resolve(join(dataDir, 'webhook-tls'))
  const generated = await ensureGeneratedCertificate(dir, { dnsNames: dnsNamesFor(serviceNames, config.podNamespace), ipAddresses: ['127.0.0.1', '::1'] })
  logger.info(
    { certFile: generated.certFile, keyFile: generated.keyFile },
    generated.created
      ? 'no VERDICT_TLS_CERT_FILE: generated a self-signed webhook certificate; use it as the caBundle of the webhook configuration'
      : 'no VERDICT_TLS_CERT_FILE: serving the self-signed webhook certificate generated earlier',
  )
  return { certFile: generated.certFile, keyFile: generated.keyFile }
}

/** `localhost` and every name the API server may dial a Service by: `svc`, `svc.ns`, `svc.ns.svc`, `svc.ns.svc.cluster.local`. */
export function dnsNamesFor(serviceNames: readonly string[], namespace: string): string[] {
  const names = ['localhost']
  for (const service of serviceNames) {
    names.push(service, `${service}.${namespace}`, `${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`)
  }
  return [...new Set(names)]
}
