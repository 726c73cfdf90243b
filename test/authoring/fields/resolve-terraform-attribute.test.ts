import { describe, expect, it } from 'vitest'
import { resolveTerraformName, resolveTerraformWords } from '../../../src/authoring/fields/resolve-terraform-attribute.js'
import { knowsTerraformType, terraformAttributes, terraformTableVersions } from '../../../src/authoring/fields/terraform-attributes.js'

const paths = (found: ReadonlyArray<{ path: string }>): string[] => found.map((attribute) => attribute.path)

describe('the Terraform attribute table', () => {
  it('knows the resource types of the three providers, with value types and nested blocks', () => {
    expect(Object.keys(terraformTableVersions()).sort()).toEqual(['@cdktf/provider-aws', '@cdktf/provider-azurerm', '@cdktf/provider-google'])
    for (const type of ['aws_db_instance', 'google_storage_bucket', 'azurerm_storage_account']) expect(knowsTerraformType(type)).toBe(true)
    expect(knowsTerraformType('aws_no_such_thing')).toBe(false)
    const bucket = terraformAttributes('google_storage_bucket')
    expect(bucket.find((attribute) => attribute.path === 'uniform_bucket_level_access')).toEqual({ path: 'uniform_bucket_level_access', segments: ['uniform_bucket_level_access'], type: 'boolean' })
    expect(bucket.find((attribute) => attribute.path === 'versioning[].enabled')).toEqual({ path: 'versioning[].enabled', segments: ['versioning', 'enabled'], type: 'boolean' })
    expect(bucket.find((attribute) => attribute.path === 'versioning')?.type).toBe('block')
  })
})

describe('resolving how authors name an attribute', () => {
  it('finds a written name at the top or inside the one block that has it', () => {
    expect(paths(resolveTerraformName('aws_db_instance', 'storage_encrypted'))).toEqual(['storage_encrypted'])
    expect(paths(resolveTerraformName('azurerm_linux_web_app', 'minimum_tls_version'))).toEqual(['site_config[].minimum_tls_version'])
    // ingress and egress both have from_port: the name alone does not say which.
    expect(resolveTerraformName('aws_security_group', 'from_port')).toEqual([])
    expect(resolveTerraformName('aws_db_instance', 'no_such_attribute')).toEqual([])
  })

  it('finds words that say the attribute, give or take a unit or switch word, and never the type itself', () => {
    expect(paths(resolveTerraformWords('aws_db_instance', 'backup retention'))).toEqual(['backup_retention_period'])
    expect(paths(resolveTerraformWords('aws_db_instance', 'deletion protection'))).toEqual(['deletion_protection'])
    expect(paths(resolveTerraformWords('google_storage_bucket', 'uniform bucket level access'))).toEqual(['uniform_bucket_level_access'])
    expect(paths(resolveTerraformWords('azurerm_storage_account', 'minimum TLS version'))).toEqual(['min_tls_version'])
    expect(resolveTerraformWords('aws_s3_bucket', 'bucket')).toEqual([])
    expect(resolveTerraformWords('aws_db_instance', 'moon phase')).toEqual([])
  })
})
