import { functionError } from '../errors.js'
import { formatImageInfo, parseImageReference } from '../image-reference.js'
import { STRING, stringArg, type JmespathFunction } from './function.js'

/**
 * image_normalize(image): the reference as Kyverno knows it internally, with the default
 * registry and tag filled in (`nginx` is `docker.io/nginx:latest`). Kyverno's defaults
 * (registry docker.io, registry mutation on) apply.
 */
export const IMAGE_FUNCTIONS: readonly JmespathFunction[] = [
  {
    name: 'image_normalize',
    signature: [STRING],
    call: (args) => {
      try {
        return formatImageInfo(parseImageReference(stringArg(args, 0)))
      } catch (error) {
        throw functionError('image_normalize', (error as Error).message)
      }
    },
  },
]
