import { PipeTransform, Type } from '@nestjs/common';
import { DocumentCheck, problems, validateInputWithDocument } from '@social/platform';

/**
 * ValidBody for a body carrying a client's own document (video projects): the members are validated
 * against their contract class, the document once, here, by `check` (the service trusts it and only
 * checks its type). 400 when the body is not an object, 422 with locations otherwise.
 */
export class ValidDocumentBody<T extends object> implements PipeTransform<unknown, T> {
  constructor(
    private readonly type: Type<T>,
    private readonly check: DocumentCheck,
  ) {}

  transform(body: unknown): T {
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw problems.badRequest('malformed_body', 'The request body must be a JSON object.');
    }
    return validateInputWithDocument(this.type, body, 'body', this.check);
  }
}
