/**
 * The longest instruction read, in characters: text work grows with it. Its own module so that the
 * request schemas and body checks can name it without loading the catalog and the readers.
 */
export const MAX_INSTRUCTION_LENGTH = 4000
