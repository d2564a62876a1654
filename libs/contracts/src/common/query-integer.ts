import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt } from 'class-validator';

/** Query strings arrive as text: digits become numbers, anything else stays and fails `IsInt`. */
const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value);

/** An integer query parameter (`?page=2`): bounds stay with the member (`@Min`, `@Max`). */
export function IsQueryInteger(): PropertyDecorator {
  return applyDecorators(Transform(toInteger), IsInt({ message: '$property must be an integer' })) as PropertyDecorator;
}
