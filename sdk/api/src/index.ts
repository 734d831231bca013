/** Major version of the channel SDK; plugins declare `>=3 <4` against it. */
export const SDK_MAJOR_VERSION = 3;
