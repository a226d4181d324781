/**
 * Input binding (docs/spec.md 4.5, binding steps 1–3): body parsers, the binder
 * and conversions. The pipeline compiles one binder per route at boot.
 */
export { compileBinder, type Binder } from './binder.js';
export { registerBodyParsers, JSON_SUFFIX_TYPE } from './body-parsers.js';
export { bodyKindOf, isUrlEncoded, type BodyKind } from './body-kind.js';
export { clientName, attributeName } from './client-names.js';
export { fromJson, fromText, conversionMessage, INVALID, ABSENT } from './convert.js';
export { parseTimestamp } from './timestamp.js';
export { MultipartBody, multipartParser, type FormValues } from './multipart.js';
export { memoryReceiver, storageReceiver, type FileReceiver, type IncomingFile } from './file-receiver.js';
export { compileUploadPlan, type UploadPlan, type FileFieldPlan } from './upload-plan.js';
export { RawBody } from './raw-body.js';
export { bodyTooLarge, unsupportedMediaType, malformedBody } from './body-errors.js';
