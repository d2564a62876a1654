import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const IS_PUBLIC = 'gateway:public';
/** Marker the OpenAPI document reads to tell public operations from secured ones (removed from the published document). */
export const PUBLIC_OPERATION_EXTENSION = 'x-public-operation';
/** Marks a route that needs no bearer token (auth entry points, health, docs). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_OPERATION_EXTENSION, true));
