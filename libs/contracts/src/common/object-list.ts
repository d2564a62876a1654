import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, ValidateNested } from 'class-validator';

/**
 * A request member holding a list of objects of `type`, each validated where it
 * is (`body.accounts[2].social_account_id`), at most `maxItems` (and at least
 * `minItems`). Swagger documentation and optionality stay with the member.
 */
export function IsObjectList(type: new () => object, maxItems: number, minItems = 0): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    ...(minItems > 0 ? [ArrayMinSize(minItems)] : []),
    ArrayMaxSize(maxItems),
    IsObject({ each: true, message: '$property must contain objects' }),
    ValidateNested({ each: true }),
    Type(() => type),
  ) as PropertyDecorator;
}
