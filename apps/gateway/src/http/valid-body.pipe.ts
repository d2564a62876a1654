import { PipeTransform, Type } from '@nestjs/common';
import { problems, validateInput } from '@social/platform';

/** Validates a JSON body against its contract class at the edge: 400 when not an object, 422 with locations otherwise. */
export class ValidBody<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly type: Type<T>) {}

  transform(body: unknown): T {
    // No body at all is validated as {} (422 naming the missing members); JSON that is not an object is 400.
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw problems.badRequest('malformed_body', 'The request body must be a JSON object.');
    }
    return validateInput(this.type, body, 'body');
  }
}
