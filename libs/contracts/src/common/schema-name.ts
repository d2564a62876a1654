import 'reflect-metadata';
import { ApiSchema } from '@nestjs/swagger';

const SCHEMA_NAME = Symbol('schemaName');

/**
 * Gives a response class its published schema name (the `<Name>` of
 * `/api/v1/schemas/<Name>.json` and of the OpenAPI component) when it differs
 * from the class name, e.g. `SecurityStatus` → `SecurityStatusOutputBody`.
 */
export function SchemaName(name: string): ClassDecorator {
  return (target) => {
    ApiSchema({ name })(target);
    Reflect.defineMetadata(SCHEMA_NAME, name, target);
  };
}

export function schemaNameOf(type: abstract new (...args: never[]) => unknown): string {
  return (Reflect.getMetadata(SCHEMA_NAME, type) as string | undefined) ?? type.name;
}
