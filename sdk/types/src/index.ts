/** Major version of the shared types package. */
export const TYPES_MAJOR_VERSION = 3;
