/** Small shared helpers: durations, sizes, free ports, coded errors, name hints, tables, HTTP header bits. */
export { formatDuration, parseDuration } from './duration.js';
export { BYTE_SIZE_UNITS, formatByteSize, parseByteSize } from './size.js';
export { freePort } from './free-port.js';
export { CodedError, isCodedError } from './coded-error.js';
export { closest } from './closest.js';
export { formatTable } from './format-table.js';
