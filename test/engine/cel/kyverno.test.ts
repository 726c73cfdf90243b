import { describe, expect, it } from 'vitest'
import { evalCel } from './helpers.js'

describe('parseServiceAccount', () => {
  it('splits a service account username', () => {
    const request = { userInfo: { username: 'system:serviceaccount:team-a:deployer' } }
    expect(evalCel('parseServiceAccount(request.userInfo.username).Namespace', { request })).toBe('team-a')
    expect(evalCel('parseServiceAccount(request.userInfo.username).Name', { request })).toBe('deployer')
  })

  it('gives empty strings for other users', () => {
    expect(evalCel("parseServiceAccount('alice@example.com')")).toEqual({ Namespace: '', Name: '' })
    expect(evalCel("parseServiceAccount('system:serviceaccount:only-namespace')")).toEqual({ Namespace: '', Name: '' })
  })
})
