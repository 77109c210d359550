/** Errors are values with a code; the HTTP layer maps each kind to a status and the error body. */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unavailable'
  /** A service we depend on (the LLM provider) answered with an error. */
  | 'upstream';

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  /**
   * The minds a refused use would have touched (a panel's, whatever selected them): the access log
   * writes one `.denied` row per mind. Not part of the answer.
   */
  readonly mindIds?: readonly string[];
  constructor(kind: ErrorKind, code: string, message: string, details?: Record<string, unknown>, mindIds?: readonly string[]) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.details = details;
    if (mindIds) this.mindIds = mindIds;
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, code = 'not_found') =>
  new DomainError('not_found', code, `${what} was not found.`);

export const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', code, message, details);

export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', code, message, details);

export const tooLarge = (limitBytes: number, what: string) =>
  new DomainError('too_large', 'payload_too_large', `${what} exceeds the limit of ${limitBytes} bytes.`, {
    limitBytes,
  });

/** The LLM provider answered with an error or an unusable answer (502). */
export const llmError = (message: string, details?: Record<string, unknown>) => new DomainError('upstream', 'llm_error', message, details);

/** The LLM provider could not be reached in time (503). */
export const llmUnavailable = (message: string, details?: Record<string, unknown>) =>
  new DomainError('unavailable', 'llm_unavailable', message, details);
