import { SetMetadata } from '@nestjs/common';

export const REQUIRES_INSTANCE_ADMIN = 'gateway:requires-instance-admin';
/**
 * Marks a controller or route only instance administrators reach (contract
 * §3, `/admin/*`): the guard answers 403 `admin_required` before the body or
 * query is validated, so a non-admin learns nothing from bad input. The admin
 * service checks again; the gateway's check is not the only one.
 */
export const RequiresInstanceAdmin = () => SetMetadata(REQUIRES_INSTANCE_ADMIN, true);
