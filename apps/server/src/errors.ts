/**
 * What a service can refuse, in the service's own words: none of these knows about HTTP. The HTTP layer maps
 * each kind to its status in one place (http/error-handler.ts), so a rule reads the same in a route, a job
 * or a test.
 */
export class ServiceError extends Error {
  /** Extra reply fields a client acts on (e.g. the stock left when an amount is refused). */
  readonly extra?: Record<string, unknown>;

  constructor(message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.extra = extra;
  }
}

/** The input breaks a rule: which field, and why. */
export class InvalidInput extends ServiceError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** Nobody is signed in, or the credentials are not valid. */
export class NotSignedIn extends ServiceError {}

/** A signed-in caller who may not do this. */
export class NotAllowed extends ServiceError {}

/** No such record (or not the caller's: the two answer alike). */
export class NotFound extends ServiceError {}

/** The request clashes with the state of the data (a taken e-mail, a limit reached). */
export class Conflict extends ServiceError {}

/** Too many attempts: try again after `retryAfterSeconds`. */
export class TooManyAttempts extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The content is not of a kind the store accepts (e.g. an upload that isn't an image). */
export class UnsupportedContent extends ServiceError {}

/**
 * A company the store relies on (a payment provider) failed or refused the store's own request. The caller
 * is told to try again; `detail` (the company's answer) is for the log only.
 */
export class UpstreamUnavailable extends ServiceError {
  constructor(
    readonly upstream: string,
    readonly detail: string,
  ) {
    super(`${upstream} is not available right now: try again in a moment`);
  }
}

/** docs/product-rules.md §10.7: an expired access token; clients refresh on this error's name. */
export class AccessTokenExpired extends ServiceError {
  constructor() {
    super("jwt expired");
  }
}
