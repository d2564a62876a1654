import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage, IsInt, IsString, Length, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './metadata-cache.js';

cacheValidationMetadata();
const storage = getMetadataStorage();
const rulesOf = (target: new () => object) => storage.getTargetValidationMetadatas(target, '', false, false);

class Named {
  @IsString() name!: string;
}

class Counted extends Named {
  @IsInt() count!: number;
}

describe('cacheValidationMetadata', () => {
  it('answers each class from the cache, its inherited rules included', () => {
    const first = rulesOf(Counted);
    expect(rulesOf(Counted)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(validateSync(Object.assign(new Counted(), { name: 'a', count: 1.5 })).map((error) => error.property)).toEqual(['count']);
  });

  it('looks again once a rule is added to a class it has answered for', () => {
    const before = rulesOf(Named);
    Length(2, 5)(Named.prototype, 'name');
    expect(rulesOf(Named)).not.toBe(before);
    expect(rulesOf(Named)).toHaveLength(before.length + 1);
    expect(validateSync(Object.assign(new Named(), { name: 'a' })).map((error) => Object.keys(error.constraints ?? {}))).toEqual([
      ['isLength'],
    ]);
  });

  it('patches the storage once, however often it is called', () => {
    const lookup = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(lookup);
  });
});
