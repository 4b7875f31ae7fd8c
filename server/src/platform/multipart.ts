import { messages } from '@lp/contract/common/errors';
import { unstorableText } from '@lp/contract/common/input-limits';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';

/** What an upload route reads: one file part and a few text fields, nothing else. */
export interface UploadShape<F extends string> {
  /** the file part's field name */
  file: string;
  fields: readonly F[];
  maxFileBytes: number;
}

export interface UploadForm<F extends string> {
  fields: Partial<Record<F, string>>;
  /** the file as UTF-8 text */
  text: string;
}

/** A text field holds an id or a number: far below this. */
const FIELD_MAX_BYTES = 1024;

/**
 * Reads a multipart/form-data upload whole, as the shape allows (decision 020: bad input is a 4xx in the
 * envelope, never a 500). The parser's own failures (no boundary, truncated body, malformed part headers) are
 * 400; a second file, an unknown or repeated field, and NUL or unpaired surrogates in a field or the file are
 * 400; a file over the limit is 413.
 */
export async function readUploadForm<F extends string>(
  request: FastifyRequest,
  shape: UploadShape<F>,
): Promise<UploadForm<F>> {
  const names = [shape.file, ...shape.fields];
  const list = `${names.length > 1 ? 'fields' : 'field'} ${names.join(' and ')}`;
  const form = `multipart/form-data (${list})`;
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as ${form}.`);
  const onlyThese = () =>
    badRequest(`The form takes only the ${list}, ${names.length > 1 ? 'each ' : ''}once.`);
  const fields: Partial<Record<F, string>> = {};
  let text: string | undefined;
  const stall = stallGuard(request);
  const readParts = async () => {
    const parts = request.parts({
      limits: {
        fileSize: shape.maxFileBytes,
        files: 1,
        // Room for the expected fields and a few more, so a stray field gets the clear 400 below.
        fields: shape.fields.length + 5,
        parts: names.length + 5,
        fieldSize: FIELD_MAX_BYTES,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== shape.file || text !== undefined) {
          // Drained first: a file part left unread holds the parser back, and the answer never left.
          part.file.resume();
          throw onlyThese();
        }
        text = (await part.toBuffer()).toString('utf8');
        const problem = unstorableText(text);
        if (problem) throw badRequest(`Invalid request: ${shape.file}: ${problem}`);
        continue;
      }
      const name = part.fieldname as F;
      if (!shape.fields.includes(name) || fields[name] !== undefined) throw onlyThese();
      const value = typeof part.value === 'string' ? part.value : '';
      if (part.valueTruncated) throw badRequest(`Invalid request: ${name}: too long`);
      const problem = unstorableText(value);
      if (problem) throw badRequest(`Invalid request: ${name}: ${problem}`);
      fields[name] = value;
    }
  };
  try {
    await Promise.race([readParts(), stall.stalled]);
  } catch (e) {
    throw uploadError(e, form, shape);
  } finally {
    stall.stop();
  }
  if (text === undefined) throw badRequest(messages.uploadNeedsFile);
  return { fields, text };
}

/** How long an upload may go without a byte arriving before it is refused (see stallGuard). */
export const UPLOAD_IDLE_MS = 8_000;

/**
 * The parser (busboy) stops for good on some malformed bodies (a large part whose disposition is not form-data
 * is never drained), so the form would never be answered. A body that has not moved for UPLOAD_IDLE_MS while the
 * form is still being read is refused as malformed. Listening to 'data' does not change the stream's flow: the
 * parser's pipe already reads it and pauses it.
 */
function stallGuard(request: FastifyRequest): { stalled: Promise<never>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let fail: (e: Error) => void = () => {};
  const stalled = new Promise<never>((_, reject) => {
    fail = reject;
  });
  stalled.catch(() => {});
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => fail(new Error('upload stalled')), UPLOAD_IDLE_MS);
  };
  request.raw.on('data', arm);
  arm();
  return {
    stalled,
    stop: () => {
      clearTimeout(timer);
      request.raw.off('data', arm);
    },
  };
}

/** Only the multipart parser runs inside the loop: whatever it throws is about the request's body. */
function uploadError(e: unknown, form: string, shape: UploadShape<string>): AppError {
  if (e instanceof AppError) return e;
  switch ((e as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `The file is larger than ${shape.maxFileBytes / 1_048_576} MB.`,
      );
    case 'FST_FILES_LIMIT':
      return badRequest(`Send one file (field ${shape.file}).`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return badRequest(`The form has parts it does not take: send it as ${form}.`);
    default:
      return badRequest(`The upload is not well-formed: send the file as ${form}.`);
  }
}
