/** Small shared helpers: durations, sizes, free ports, coded errors. */
export { formatDuration, parseDuration } from './duration.js';
export { BYTE_SIZE_UNITS, formatByteSize, parseByteSize } from './size.js';
export { freePort } from './free-port.js';
export { CodedError, isCodedError } from './coded-error.js';
