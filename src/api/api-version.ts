/** The REST API's version, carried by every response and by GET /version. */
export const API_VERSION = '1.0'
export const API_VERSION_HEADER = 'x-api-version'
