import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'gateway:public';
/** Marks a route that needs no bearer token (auth entry points, health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
