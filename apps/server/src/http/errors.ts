/** An error the client caused: its status and message go out as `{error}` (DESIGN.md §5). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: { field: string; reason: string }[],
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new HttpError(404, message);
export const badRequest = (field: string, reason: string) =>
  new HttpError(400, `${field}: ${reason}`, [{ field, reason }]);

/** SPEC.md §8: clients refresh their access token on a 403 whose error name is TokenExpiredError. */
export class TokenExpiredError extends HttpError {
  constructor() {
    super(403, "jwt expired");
  }
}
