import { PipeTransform, Type } from '@nestjs/common';
import { validateInput } from '@social/platform';

/** Validates the query string against its contract class: 422 with `query.<name>` locations. */
export class ValidQuery<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly type: Type<T>) {}

  transform(query: unknown): T {
    return validateInput(this.type, query, 'query');
  }
}
